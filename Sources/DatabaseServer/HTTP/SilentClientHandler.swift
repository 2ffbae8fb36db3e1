import NIOCore

/// The first handler of every connection (before the HTTP parser and the WebSocket upgrade),
/// for its whole life. It keeps the connection's place in the ``ConnectionTable`` and enforces
/// the request-head deadline: a connection must send a whole request head within the deadline of
/// connecting, and once the first byte of a later request arrives on a kept-alive connection,
/// within the deadline of that byte; else it is closed. (Silence between requests is the idle
/// timeout's business; an upgraded WebSocket connection is watched by its pings.) At the
/// server's shutdown, a connection holding a stream or a WebSocket is closed at once, so that
/// shutdown does not wait for its client to leave; other requests in progress finish. After an
/// error answer it drops what the client still sends, for a few seconds, then closes.
final class SilentClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let timeout: TimeAmount
    private let table: ConnectionTable?
    private var id: Int?
    /// The drain's timer (after an error answer).
    private var timer: Scheduled<Void>?
    /// When the request head being waited for must have arrived (nil: not counting).
    private var headDeadline: NIODeadline?
    /// The timer that checks ``headDeadline``: armed once and moved on when it fires early, so a
    /// kept-alive connection's requests schedule and cancel nothing.
    private var headTimer: Scheduled<Void>?
    /// Requests whose head the HTTP layer saw and whose response has not ended.
    private var inProgress = 0
    /// Whether the connection waits for a request head (the bytes are watched for its end).
    private var waitingForHead = true
    /// The last bytes seen, to find `\r\n\r\n` across reads.
    private var tail: UInt32 = 0
    private var longLived = false
    private var draining = false
    /// Whether this handler answered the connection itself (what the layers above write is dropped).
    private var answered = false
    /// How long a connection that got an error answer is read from before it is closed.
    static let drainTime = TimeAmount.seconds(5)

    init(timeout: TimeAmount, table: ConnectionTable? = nil) {
        self.timeout = timeout
        self.table = table
    }

    func handlerAdded(context: ChannelHandlerContext) {
        id = table?.add(context.channel)
        startTimer(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        headTimer?.cancel()
        headTimer = nil
        if let id { table?.remove(id) }
        id = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        headTimer?.cancel()
        headTimer = nil
        if let id { table?.remove(id) }
        id = nil
        context.fireChannelInactive()
    }

    /// Starts counting the head deadline from now.
    private func startTimer(context: ChannelHandlerContext) {
        headDeadline = .now() + timeout
        armHeadTimer(eventLoop: context.eventLoop, channel: context.channel)
    }

    private func armHeadTimer(eventLoop: any EventLoop, channel: any Channel) {
        guard headTimer == nil, let deadline = headDeadline else { return }
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        headTimer = eventLoop.scheduleTask(deadline: deadline) {
            bound.value.headTimerFired(eventLoop: eventLoop, channel: channel)
        }
    }

    /// Closes the connection if its head is late; else waits for the current deadline, if any.
    private func headTimerFired(eventLoop: any EventLoop, channel: any Channel) {
        headTimer = nil
        guard waitingForHead, !draining, let deadline = headDeadline else { return }
        if deadline <= .now() {
            channel.close(promise: nil)
        } else {
            armHeadTimer(eventLoop: eventLoop, channel: channel)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if draining { return }
        if waitingForHead {
            if headDeadline == nil { startTimer(context: context) }
            var found = false
            unwrapInboundIn(data).withUnsafeReadableBytes { bytes in
                for byte in bytes {
                    tail = (tail << 8) | UInt32(byte)
                    if tail == 0x0D0A_0D0A {
                        found = true
                        break
                    }
                }
            }
            if found { headArrived() }
        }
        context.fireChannelRead(data)
    }

    /// A whole request head arrived: the connection is busy until its response ends.
    private func headArrived() {
        waitingForHead = false
        tail = 0
        headDeadline = nil
        if let id { table?.setIdle(id, false) }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let activity = event as? ConnectionActivity else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch activity {
        case .requestStarted(let isLongLived, let client):
            inProgress += 1
            longLived = longLived || isLongLived
            headArrived()
            if isLongLived, let client, let id, let table, !table.holdLongLived(id, client: client) {
                // Over the client's share: answered below the HTTP layer, then closed.
                guard !answered else { break }
                answered = true
                drain(context: context)
                let channel = context.channel
                let answer = ParserErrorHandler.rawAnswer(status: "503 Service Unavailable", json: ConnectionTable.overShareJSON(table.perClient))
                context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: answer))).whenComplete { _ in
                    channel.close(mode: .output, promise: nil)
                }
            }
        case .responseEnded:
            inProgress = max(0, inProgress - 1)
            if inProgress == 0 {
                longLived = false
                waitingForHead = true
                if let id { table?.setIdle(id, true) }
            }
        case .drainThenClose:
            drain(context: context)
        case .answerAndClose(let text):
            guard !answered else { break }
            answered = true
            drain(context: context)
            let channel = context.channel
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: text))).whenComplete { _ in
                // The answer is out: no more is sent; what the client still sends is read and
                // dropped until it closes (or the drain time is over).
                channel.close(mode: .output, promise: nil)
            }
        }
        promise?.succeed()
    }

    /// Reads and drops what the client sends from now on; closes after ``drainTime``.
    private func drain(context: ChannelHandlerContext) {
        draining = true
        headDeadline = nil
        headTimer?.cancel()
        headTimer = nil
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: Self.drainTime) {
            channel.close(promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if answered {
            promise?.succeed()
            return
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, longLived {
            context.close(promise: nil)
            return
        }
        if draining, let half = event as? ChannelEvent, half == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
