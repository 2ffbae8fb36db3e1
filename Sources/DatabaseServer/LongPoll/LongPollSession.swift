import HummingbirdWebSocket
import Synchronization

/// A ``WireSession`` carried by long polling (`/.lp`), as the JavaScript SDK speaks it when a
/// WebSocket failed before or `forceLongPolling()` is set, and later, perhaps, by the WebSocket
/// it upgrades to.
///
/// - Client to server: messages arrive as numbered segments on any request
///   (``LongPollSegments``); whole messages go, in segment order, to one task that feeds the
///   wire session, so they are handled strictly in order.
/// - Server to client: what the session's outbox yields waits here; the request held open (at
///   most one: a newer request releases the older at once) is answered with every waiting
///   message as one packet, `pRTLPCB(n,[…])`, numbered 1, 2, 3… (0 is the handshake) with no
///   gaps, a number given only to a body that is sent. A held request with nothing to send is
///   answered empty after ``ServerLimits/longPollHoldSeconds``.
/// - The upgrade: a WebSocket opened with `s=<session>` attaches itself; when the client ends
///   long polling (its `n`, after its switch to the socket), everything queued before goes on
///   long polling with the server's `n` last and `pLPCommand('close',n)`, and everything after
///   on the socket. Data messages the client sent on the socket before its long-polling `n`
///   wait until that `n` is queued, so nothing is handled out of order.
/// - The end: the disconnect frame's `disconn`, no request for
///   ``ServerLimits/longPollIdleSeconds``, a protocol error, a client that reads too slowly, or
///   shutdown; once on the socket, only the socket's close. The session's onDisconnect
///   operations then run once.
final class LongPollSession: Sendable {
    /// The long-polling id and password the client repeats in every request.
    let id: String
    let password: String
    /// The page's callback suffix (`cb`, digits).
    let callback: String
    let wire: WireSession
    private let limits: ServerLimits
    private let state: Mutex<State>
    private let inbound: AsyncStream<Inbound>.Continuation
    private let inboundStream: AsyncStream<Inbound>
    /// Fires when data messages from the upgrade socket may be handled: the client's
    /// long-polling `n` is queued, or the session ended.
    let switchAllowed = SessionSignal()
    /// Fires when the session has sent all it will (its socket may then be let go).
    let sendingDone = SessionSignal()
    /// Called once when the session ends.
    private let onEnd: @Sendable (LongPollSession) -> Void

    /// What the task feeding the wire session takes, in order.
    enum Inbound: Sendable {
        case message(WireMessage)
        /// A whole message still in the segments' encoding.
        case encoded(String)
        /// The client's `n` on long polling: the server's `n` goes after every answer so far.
        case endOfTransmission
    }

    private struct State {
        var pending: [String] = []
        var pendingBytes = 0
        var nextPacket = 1
        var held: (token: Int, continuation: CheckedContinuation<String, Never>)?
        var tokens = 0
        /// When a poll was last answered (the session's start at first): the idle clock.
        var lastAnswer = ContinuousClock.now
        var ended = false
        /// The last waiting message is the server's `n`: its packet carries the final `close`.
        var closesAfterPending = false
        /// Server to client goes on the socket now.
        var left = false
        var socket: WebSocketOutboundWriter?
        var clientEnded = false
        var segments: LongPollSegments
        var flushScheduled = false
    }

    /// The client it belongs to (see ``LongPollSessions``).
    let client: ClientKey

    init(id: String, password: String, callback: String, wire: WireSession, limits: ServerLimits, client: ClientKey = .local, bodies: BodyBudget? = nil,
         onEnd: @escaping @Sendable (LongPollSession) -> Void) {
        self.client = client
        self.id = id
        self.password = password
        self.callback = callback
        self.wire = wire
        self.limits = limits
        self.onEnd = onEnd
        state = Mutex(State(segments: LongPollSegments(maxMessageBytes: limits.maxWireMessageBytes, lease: bodies.map(BodyBudget.Lease.init))))
        (inboundStream, inbound) = AsyncStream<Inbound>.makeStream()
    }

    /// The start answer: helpers, `start` with the id and password, packet 0 (the handshake).
    var startScript: String {
        LongPollScript.start(callback: callback, id: id, password: password, handshake: wire.handshake)
    }

    /// Starts the tasks that feed the session and send what it says.
    func start() {
        let inboundStream = inboundStream, wire = wire
        Task {
            do {
                loop: for await item in inboundStream {
                    switch item {
                    case .message(let message):
                        do throws(WireMessage.Malformed) {
                            try await wire.handle(message)
                        } catch {
                            wire.close("malformed message: \(error.reason)")
                            self.end(evenIfUpgraded: true)
                            break loop
                        }
                    case .encoded(let encoded):
                        do {
                            // Decoded off the cooperative pool: its cost is the message's size.
                            let decoded = await NamespaceExecutor.offPool {
                                Result { () throws -> WireMessage in try WireMessage(LongPollSegments.decode(encoded)) }
                            }
                            try await wire.handle(decoded.get())
                        } catch let error as WireMessage.Malformed {
                            wire.close("malformed message: \(error.reason)")
                            self.end(evenIfUpgraded: true)
                            break loop
                        } catch {
                            wire.close((error as? LongPollSegments.Unusable)?.reason ?? "\(error)")
                            self.end(evenIfUpgraded: true)
                            break loop
                        }
                    case .endOfTransmission:
                        wire.outbox.endTransmission()
                    }
                }
                await wire.disconnected()
                wire.outbox.finish()
            }
        }
        Task { await send() }
    }

    // MARK: - Server to client

    /// Sends what the outbox yields: into waiting packets, or on the socket once the session
    /// has left long polling.
    private func send() async {
        var socket: WebSocketOutboundWriter?
        for await item in wire.stream {
            if wire.outbox.budget.overflowed { break }  // cut off: what waits is dropped
            if case .endOfTransmission = item {
                guard let writer = leave() else {
                    wire.close("the WebSocket the session was moving to has closed")
                    break
                }
                socket = writer
                wire.transport = .ws
                continue
            }
            let text = await wire.outbox.text(of: item)
            if let socket {
                do { try await WebSocketDoor.write(text, to: socket) } catch { break }
            } else if !deliver(text) {
                wire.close("the client reads too slowly: more than \(limits.maxQueuedBytes) bytes wait for it")
                break
            }
        }
        if let socket { try? await WebSocketDoor.close(socket, reason: wire.closeReason.value) }
        end(evenIfUpgraded: true)
        sendingDone.fire()
    }

    /// Queues a message for the next packet; false when too much waits already.
    private func deliver(_ text: String) -> Bool {
        let (fits, schedule) = state.withLock { s -> (Bool, Bool) in
            if !s.pending.isEmpty && s.pendingBytes + text.utf8.count > limits.maxQueuedBytes { return (false, false) }
            s.pending.append(text)
            s.pendingBytes += text.utf8.count
            guard s.held != nil, !s.flushScheduled else { return (true, false) }
            s.flushScheduled = true
            return (true, true)
        }
        if schedule {
            // A moment for what follows at once (a write's events, then its `ok`) to go in
            // the same packet.
            Task {
                try? await Task.sleep(for: .milliseconds(Self.gatherMilliseconds))
                self.flush()
            }
        }
        return fits
    }

    /// How long an answer waits for more messages once the first is ready.
    static let gatherMilliseconds = 2

    /// Answers the held request with what waits.
    private func flush() {
        let answer = state.withLock { s -> (CheckedContinuation<String, Never>, String)? in
            s.flushScheduled = false
            guard let held = s.held, !s.pending.isEmpty else { return nil }
            s.held = nil
            s.lastAnswer = .now
            return (held.continuation, Self.takeBody(&s))
        }
        if let (continuation, body) = answer { continuation.resume(returning: body) }
    }

    /// The next packet: every waiting message under the next number, with the final `close`
    /// if the server's `n` is among them; empty when nothing waits.
    private static func takeBody(_ s: inout State) -> String {
        if s.pending.isEmpty { return "" }
        let number = s.nextPacket
        s.nextPacket += 1
        var body = LongPollScript.packet(number, s.pending)
        s.pending = []
        s.pendingBytes = 0
        if s.closesAfterPending {
            body += LongPollScript.close(afterPacket: number)
            s.closesAfterPending = false
        }
        return body
    }

    // MARK: - Requests

    /// One poll (with or without data): the request held so far is answered (a newer one has
    /// come), this one's segments are taken, and it is held until there is something to send or
    /// the hold time is over. Returns the body.
    ///
    /// All of it happens under one lock, so what the segments cause (their replies) goes on this
    /// request or a later one, never on the one it released.
    func poll(segments: [(number: Int, total: Int, data: Substring)]) async -> String {
        let hold = limits.longPollHoldSeconds
        var unusable: LongPollSegments.Unusable?
        let body = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            var older: (CheckedContinuation<String, Never>, String)?
            var now: String?
            var token = 0
            state.withLock { s in
                // The idle clock is reset by answers (a poll completed), not by arrivals: a
                // client that only starts requests and drops them is still gone after the idle
                // time.
                if s.ended {
                    now = LongPollScript.close()
                    return
                }
                if let held = s.held {
                    s.held = nil
                    s.lastAnswer = .now
                    older = (held.continuation, Self.takeBody(&s))
                }
                do throws(LongPollSegments.Unusable) {
                    try take(segments, &s)
                } catch {
                    unusable = error
                    now = LongPollScript.close()
                    return
                }
                if !s.pending.isEmpty || s.left {
                    s.lastAnswer = .now
                    now = Self.takeBody(&s)
                    return
                }
                s.tokens += 1
                token = s.tokens
                s.held = (token, continuation)
            }
            if let (held, body) = older { held.resume(returning: body) }
            if let now {
                continuation.resume(returning: now)
                return
            }
            Task {
                try? await Task.sleep(for: .milliseconds(Int64(hold * 1000)))
                self.release(token)
            }
        }
        if let unusable {
            wire.close(unusable.reason)
            end(evenIfUpgraded: true)
        }
        return body
    }

    /// Takes a request's segments; the messages they complete go to the feeding task in order.
    /// The client's `n` (it has moved its sending to the socket) is noted, not handled.
    private func take(_ segments: [(number: Int, total: Int, data: Substring)], _ s: inout State) throws(LongPollSegments.Unusable) {
        for segment in segments {
            for encoded in try s.segments.add(segment: segment.number, total: segment.total, data: segment.data) {
                // A long message is decoded by the feeding task (off the pool), not under this lock (it cannot
                // be the short `n`).
                guard encoded.utf8.count <= Self.decodedUnderLock else {
                    inbound.yield(.encoded(encoded))
                    continue
                }
                let message: WireMessage
                let text = try LongPollSegments.decode(encoded)
                do throws(WireMessage.Malformed) { message = try WireMessage(text) } catch { throw LongPollSegments.Unusable(reason: "malformed message: \(error.reason)") }
                if message.layer == "c" && message.control == "n" {
                    guard s.socket != nil, !s.clientEnded else { continue }
                    s.clientEnded = true
                    inbound.yield(.endOfTransmission)
                    switchAllowed.fire()
                } else {
                    inbound.yield(.message(message))
                }
            }
        }
    }

    /// The longest encoded message decoded under the session's lock (the client's `n` is about
    /// 40 characters).
    static let decodedUnderLock = 256

    /// Answers held request `token` (its hold time is over) with what waits, if it is still
    /// held.
    private func release(_ token: Int) {
        let answer = state.withLock { s -> (CheckedContinuation<String, Never>, String)? in
            guard let held = s.held, held.token == token else { return nil }
            s.held = nil
            s.lastAnswer = .now
            return (held.continuation, Self.takeBody(&s))
        }
        if let (continuation, body) = answer { continuation.resume(returning: body) }
    }

    /// The disconnect frame says the client has gone: the session ends, unless it has moved
    /// to the socket (the frame is removed after an upgrade too).
    func disconnect() {
        end()
    }

    /// Whether the client seems gone: no request held and none for `seconds`, on long polling.
    func idle(for seconds: Double) -> Bool {
        state.withLock { s in
            !s.left && !s.ended && s.held == nil && s.lastAnswer.duration(to: .now) > .milliseconds(Int64(seconds * 1000))
        }
    }

    /// Ends the session: the held request is answered with `close` (the SDK reconnects), the
    /// feeding task runs the onDisconnect operations. Once on the socket, only
    /// `evenIfUpgraded` ends it (the socket closed, the server stops).
    func end(evenIfUpgraded: Bool = false) {
        let (ended, held, socket) = state.withLock { s -> (Bool, CheckedContinuation<String, Never>?, WebSocketOutboundWriter?) in
            if s.ended || (s.left && !evenIfUpgraded) { return (false, nil, nil) }
            s.ended = true
            s.segments.discard()
            let held = s.held
            s.held = nil
            // A socket the session had not moved to yet is closed with it.
            return (true, held?.continuation, s.left ? nil : s.socket)
        }
        guard ended else { return }
        held?.resume(returning: LongPollScript.close())
        if let socket { Task { try? await socket.close(.goingAway, reason: "the session has ended") } }
        inbound.finish()
        switchAllowed.fire()
        onEnd(self)
    }

    // MARK: - The upgrade

    /// Attaches the socket a client opened to upgrade; false when the session has ended or has
    /// a socket already.
    func attach(_ socket: WebSocketOutboundWriter) -> Bool {
        state.withLock { s in
            guard !s.ended, !s.left, s.socket == nil else { return false }
            s.socket = socket
            return true
        }
    }

    /// The upgrade socket closed. Returns whether the session lives on it (it then ends); if
    /// not, it goes on over long polling.
    func detach() -> Bool {
        state.withLock { s in
            if s.left { return true }
            s.socket = nil
            return false
        }
    }

    /// Hands a data message that came on the upgrade socket to the session (after the
    /// client's long-polling `n`, see ``switchAllowed``).
    func receiveFromSocket(_ message: WireMessage) {
        inbound.yield(.message(message))
    }

    /// Leaves long polling: the server's `n` is the last message on it, its packet closes the
    /// transport. Returns the socket to send on from now on (nil: it has gone).
    private func leave() -> WebSocketOutboundWriter? {
        let (socket, answer) = state.withLock { s -> (WebSocketOutboundWriter?, (CheckedContinuation<String, Never>, String)?) in
            guard let socket = s.socket, !s.ended else { return (nil, nil) }
            s.left = true
            s.pending.append(WireOutbox.endOfTransmissionMessage)
            s.closesAfterPending = true
            guard let held = s.held else { return (socket, nil) }
            s.held = nil
            return (socket, (held.continuation, Self.takeBody(&s)))
        }
        if let (continuation, body) = answer { continuation.resume(returning: body) }
        return socket
    }
}
