import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The HTTP layer's watcher of a connection (after the conversion to HTTP types): it tells the
/// connection's first handler (``SilentClientHandler``) when a request begins and when its
/// response ends (``ConnectionActivity``), and has a parser error that reaches it answered
/// (see ``ParserErrorHandler``) instead of leaving the client waiting.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            let stream = head.headerFields[.accept]?.contains("text/event-stream") == true || head.headerFields[.upgrade] != nil
            let client = stream ? RequestOrigin(origin: head.headerFields[.origin], fetchSite: head.headerFields[RequestOrigin.secFetchSite]).client : nil
            context.triggerUserOutboundEvent(ConnectionActivity.requestStarted(longLived: stream, client: client), promise: nil)
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
