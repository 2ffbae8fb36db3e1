import NIOCore

/// Closes a connection whose first request head has not arrived within the idle timeout: a client
/// that connects and never speaks, or sends half a head and stops, does not hold a connection
/// (and a slot of `maxConnections`) for ever. It sits first in the pipeline, before the HTTP
/// parser, watches the bytes for the end of the first head (`CRLF CRLF`), and then removes
/// itself: after the first request, the HTTP server's own idle timeout applies, and an upgraded
/// WebSocket connection is watched by its pings.
final class SilentClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find `\r\n\r\n` across reads.
    private var tail: UInt32 = 0

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) {
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        var found = false
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                tail = (tail << 8) | UInt32(byte)
                if tail == 0x0D0A_0D0A {
                    found = true
                    break
                }
            }
        }
        context.fireChannelRead(data)
        if found {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
