import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server's child channel with a ``SilentClientHandler`` put first in each connection's
/// pipeline, before the HTTP parser (and the WebSocket upgrade): it enforces the request-head
/// deadline, keeps the connection's place in the ``ConnectionTable`` (which sheds idle
/// connections when the server is full), closes streams at shutdown, and writes the answers the
/// HTTP layer cannot (see ``ParserErrorHandler``, placed right after the parser).
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    /// How long a connection may take to send a request head (from connecting, or from the
    /// first byte of a later request).
    let timeout: TimeAmount
    /// How long a request body may take to arrive whole, from its head.
    var bodyTimeout: TimeAmount = .hours(1)
    /// The server's connections (nil: none kept, nothing shed).
    var table: ConnectionTable? = nil

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeout = timeout, table = table, bodyTimeout = bodyTimeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(SilentClientHandler(timeout: timeout, bodyTimeout: bodyTimeout, table: table), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            // Parser errors are answered from right after the parser (see ParserErrorHandler).
            let operations = channel.pipeline.syncOperations
            if let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
                try operations.addHandler(ParserErrorHandler(), position: .after(decoder))
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
