import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The HTTP layer's watcher of a connection (after the conversion to HTTP types): it tells the
/// connection's first handler (``SilentClientHandler``) when a request begins and when its
/// response ends (``ConnectionActivity``), and has a parser error that reaches it answered
/// (see ``ParserErrorHandler``) instead of leaving the client waiting.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Whether a request's body is arriving (its head was read, its end not yet).
    private var receivingBody = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let stream = head.headerFields[.accept]?.contains("text/event-stream") == true || head.headerFields[.upgrade] != nil
            let hasBody = head.headerFields[.contentLength].map { $0 != "0" } ?? (head.headerFields[.transferEncoding] != nil)
            let client = ClientKey(
                origin: RequestOrigin(origin: head.headerFields[.origin], fetchSite: head.headerFields[RequestOrigin.secFetchSite], authority: head.authority),
                peer: context.channel.remoteAddress)
            context.triggerUserOutboundEvent(ConnectionActivity.requestStarted(longLived: stream, client: client), promise: nil)
            if hasBody {
                receivingBody = true
                context.triggerUserOutboundEvent(ConnectionActivity.uploadStarted(client), promise: nil)
            }
        case .end:
            if receivingBody {
                receivingBody = false
                context.triggerUserOutboundEvent(ConnectionActivity.uploadEnded, promise: nil)
            }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ended: Bool
        if case .end = unwrapOutboundIn(data) { ended = true } else { ended = false }
        context.write(data, promise: promise)
        if ended { context.triggerUserOutboundEvent(ConnectionActivity.responseEnded, promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Parser errors are answered by the ParserErrorHandler right after the parser; one that
        // reaches here still gets its answer.
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        context.triggerUserOutboundEvent(ConnectionActivity.answerAndClose(ParserErrorHandler.answer(for: parserError)), promise: nil)
    }
}
