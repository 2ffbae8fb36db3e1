import HummingbirdCore
import Logging
import NIOCore

/// A server's child channel with a ``SilentClientHandler`` put first in each connection's
/// pipeline, before the HTTP parser (and the WebSocket upgrade), so that connections that never
/// send a request are closed.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    /// How long a connection may take to send its first request head.
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeout = timeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(SilentClientHandler(timeout: timeout), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
