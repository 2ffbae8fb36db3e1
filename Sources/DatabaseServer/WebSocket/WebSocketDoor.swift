import HummingbirdWebSocket
import NIOCore

/// The WebSocket door (`/.ws?v=5&ns=NAME`): a ``WireSession`` carried by one socket. It sends
/// the handshake, reads messages strictly in order into the session, and writes what the
/// session's outbox yields, in the protocol's own framing (``WireFrames``). The session's
/// onDisconnect operations run when the socket closes.
struct WebSocketDoor {
    let session: WireSession
    let limits: ServerLimits
    /// The server's budget of bytes being received (HTTP bodies and messages being reassembled).
    let bodies: BodyBudget?

    /// Serves the socket until it closes.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let session = session
        session.outbox.send(session.handshake)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for await item in session.stream {
                        if session.outbox.budget.overflowed { break }  // cut off: what waits is dropped
                        let message = await session.outbox.text(of: item)
                        try await Self.write(message, to: outbound)
                    }
                    try await Self.close(outbound, reason: session.closeReason.value)
                } catch {
                    // The client went away; the reader notices too.
                }
            }
            await Self.read(inbound, limits: limits, bodies: bodies, session: session) { (message: WireMessage) async throws(WireMessage.Malformed) -> Bool in
                try await session.handle(message)
                return true
            }
            await session.disconnected()
            session.outbox.finish()
            await group.waitForAll()
        }
    }

    /// Writes one message, in pieces if it is long.
    static func write(_ message: String, to outbound: WebSocketOutboundWriter) async throws {
        for frame in WireFrames.frames(for: message) { try await outbound.write(.text(frame)) }
    }

    /// Closes the socket with the server's reason, if it has one (1007 for text that is not
    /// UTF-8, 1008 otherwise).
    static func close(_ outbound: WebSocketOutboundWriter, reason: String?) async throws {
        guard let why = reason else { return }
        try await outbound.close(WireFrames.closesAsInvalidData(why) ? .dataInconsistentWithMessage : .policyViolation, reason: String(why.prefix(120)))
    }

    /// Reads whole messages (their pieces joined) and hands each to `each` until the socket
    /// closes, `each` returns false, or a message is unusable (too large, not JSON: the session
    /// is closed with the reason).
    static func read(_ inbound: WebSocketInboundStream, limits: ServerLimits, bodies: BodyBudget?, session: WireSession,
                     each: (WireMessage) async throws(WireMessage.Malformed) -> Bool) async {
        let lease = bodies.map(BodyBudget.Lease.init)
        defer { lease?.end() }
        var frames = WireFrames(maxMessageBytes: limits.maxWireMessageBytes, lease: lease)
        do {
            for try await message in inbound.messages(maxSize: limits.maxWireFrameBytes) {
                if session.closeReason.value != nil { break }
                guard case .text(let text) = message else { continue }  // binary frames are ignored, as the SDKs do
                switch frames.receive(text) {
                case .pending: continue
                case .tooLarge(let size):
                    session.close("message of \(size) bytes is over the \(limits.maxWireMessageBytes)-byte limit")
                    return
                case .overBudget(let why):
                    session.close("the server is receiving too much at once, retry later: \(why)")
                    return
                case .message(let whole):
                    do {
                        guard try await each(WireMessage(whole)) else { return }
                    } catch {
                        session.close("malformed message: \(error.reason)")
                        return
                    }
                }
            }
        } catch {
            session.close(WireFrames.unreadableReason(error))
        }
    }
}
