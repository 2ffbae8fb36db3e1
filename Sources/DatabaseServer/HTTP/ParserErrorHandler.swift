import NIOCore
import NIOHTTP1

/// Sits right after the HTTP parser of every connection, so that it sees the parser's errors
/// before anything else, for the first request too (before the WebSocket upgrade has decided)
/// and for later ones. A request the parser cannot read gets an answer (431 for a head over the
/// parser's 80 KB, 400 otherwise), written by the connection's first handler
/// (``SilentClientHandler``), which then drains and closes the connection.
final class ParserErrorHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        context.triggerUserOutboundEvent(ConnectionActivity.answerAndClose(Self.answer(for: parserError)), promise: nil)
    }

    /// The whole HTTP answer to a request the parser refused.
    static func answer(for error: HTTPParserError) -> String {
        let status: String
        let message: String
        if case .headerOverflow = error {
            status = "431 Request Header Fields Too Large"
            message = "Request Header Fields Too Large: a request head may take at most 80 KB"
        } else {
            status = "400 Bad Request"
            message = "Malformed HTTP request: \(error)"
        }
        return rawAnswer(status: status, json: "{\n  \"error\" : \"\(message)\"\n}\n")
    }

    /// An HTTP/1.1 answer with a JSON body that closes the connection.
    static func rawAnswer(status: String, json: String, extraHeaders: String = "") -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(json.utf8.count)\r\n"
            + "Cache-Control: no-cache\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: \(EdgeResponder.exposedHeaders)\r\n"
            + extraHeaders + "Connection: close\r\n\r\n" + json
    }
}
