import DatabaseRules
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
///
/// A request body must arrive whole within the body deadline of its head (each byte does not
/// reset it: a client that trickles a body is answered 408 and closed), and while it arrives
/// the connection is held by its client in the table's shares, as a stream is.
final class SilentClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let timeout: TimeAmount
    /// How long a request body may take to arrive whole, from its head.
    private let bodyTimeout: TimeAmount
    private let table: ConnectionTable?
    /// The timer of the body being received, if any.
    private var bodyTimer: Scheduled<Void>?
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
    /// Whether the last request's client was this machine's (its idle connection is closed to
    /// make room only after everyone else's).
    private var lastLocal = false
    private var draining = false
    /// Whether this handler answered the connection itself (what the layers above write is dropped).
    private var answered = false
    /// How long a connection that got an error answer is read from before it is closed.
    static let drainTime = TimeAmount.seconds(5)

    init(timeout: TimeAmount, bodyTimeout: TimeAmount = .hours(1), table: ConnectionTable? = nil) {
        self.timeout = timeout
        self.bodyTimeout = bodyTimeout
        self.table = table
    }

    /// Refuses a place that the table would not give: answers 503 below the HTTP layer, then
    /// closes.
    private func refuse(_ refusal: ClientShares.Refusal, client: ClientKey, kind: ClientShares.Kind, context: ChannelHandlerContext) {
        guard !answered, let table else { return }
        answer(ParserErrorHandler.rawAnswer(status: "503 Service Unavailable", json: table.refusalJSON(refusal, client: client, kind: kind)), context: context)
    }

    /// Answers with `text` (a whole HTTP response) below the HTTP layer, drops whatever the
    /// layers above still write, drains and closes.
    private func answer(_ text: String, context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        drain(context: context)
        let channel = context.channel
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            // The answer is out: no more is sent; what the client still sends is read and
            // dropped until it closes (or the drain time is over).
            channel.close(mode: .output, promise: nil)
        }
    }

    /// The request body did not arrive within the body deadline.
    private func bodyTimerFired(context: ChannelHandlerContext) {
        bodyTimer = nil
        let seconds = Double(bodyTimeout.nanoseconds) / 1e9
        let message = "The request body did not arrive within \(seconds.formatted()) s of its head (rules serve --limit body-timeout=SECONDS); send it faster, or in smaller requests."
        answer(ParserErrorHandler.rawAnswer(status: "408 Request Timeout", json: PrettyJSON.format(#"{"error":"# + JSONText.quote(message) + "}")), context: context)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        id = table?.add(context.channel)
        startTimer(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        bodyTimer?.cancel()
        bodyTimer = nil
        timer?.cancel()
        timer = nil
        headTimer?.cancel()
        headTimer = nil
        if let id { table?.remove(id) }
        id = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        bodyTimer?.cancel()
        bodyTimer = nil
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
            if let client { lastLocal = client.isLocal }
            headArrived()
            if isLongLived, let client, let id, let table, let refusal = table.hold(id, client: client) {
                // Over the client's share: answered below the HTTP layer, then closed.
                refuse(refusal, client: client, kind: .longLived, context: context)
                promise?.fail(ChannelError.ioOnClosedChannel)
                return
            }
        case .uploadStarted(let client):
            if let id, let table, let refusal = table.hold(id, client: client, kind: .upload) {
                refuse(refusal, client: client, kind: .upload, context: context)
                promise?.fail(ChannelError.ioOnClosedChannel)
                return
            }
            bodyTimer?.cancel()
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            bodyTimer = context.eventLoop.scheduleTask(in: bodyTimeout) {
                bound.value.bodyTimerFired(context: loopContext.value)
            }
        case .uploadEnded:
            bodyTimer?.cancel()
            bodyTimer = nil
            if !longLived, let id { table?.unhold(id) }
        case .responseEnded:
            inProgress = max(0, inProgress - 1)
            if inProgress == 0 {
                longLived = false
                waitingForHead = true
                if let id {
                    table?.unhold(id)
                    table?.setIdle(id, true, local: lastLocal)
                }
            }
        case .drainThenClose:
            drain(context: context)
        case .answerAndClose(let text):
            answer(text, context: context)
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
