import DatabaseRules
import HummingbirdWebSocket

/// The WebSocket a long-polling client opens to upgrade (`/.ws?v=5&s=<session>&ns=NAME`): the
/// same session, a second transport. The server says `a` (the session exists) and answers the
/// client's pings until the client switches (its `a` here, its `n` on long polling); data
/// messages that come here before that `n` wait for it. From the server's `n` on, the session
/// sends here (``LongPollSession``), and it ends when this socket closes.
///
/// For a session that is not open, the server says `r` and closes: the SDK drops the socket and
/// stays on long polling.
struct LongPollUpgrade {
    let session: LongPollSession?
    let limits: ServerLimits
    let host: String
    /// The server's budget of bytes being received.
    let bodies: BodyBudget?

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        guard let session, session.attach(outbound) else {
            let reset = #"{"t":"c","d":{"t":"r","d":"# + JSONText.quote(host) + "}}"
            try? await WebSocketDoor.write(reset, to: outbound)
            try? await outbound.close(.normalClosure, reason: "no such session")
            return
        }
        let wire = session.wire
        do {
            try await WebSocketDoor.write(#"{"t":"c","d":{"t":"a","d":{}}}"#, to: outbound)
        } catch {
            _ = session.detach()
            return
        }
        var switched = false
        await WebSocketDoor.read(inbound, limits: limits, bodies: bodies, session: wire) { (message: WireMessage) async throws(WireMessage.Malformed) -> Bool in
            if message.layer == "c" {
                if switched {
                    // On the socket for good: the session answers (in order with the rest).
                    session.receiveFromSocket(message)
                } else if message.control == "p" {
                    // Earning the client's trust before the switch: only this reader writes
                    // here until the client has switched (its `a`).
                    do { try await WebSocketDoor.write(WireOutbox.pong, to: outbound) } catch { return false }
                } else if message.control == "a" {
                    switched = true
                }
                return true
            }
            // Data waits for the client's long-polling `n`.
            await session.switchAllowed.wait()
            if session.sendingDone.fired { return false }
            session.receiveFromSocket(message)
            return true
        }
        if session.detach() {
            session.end(evenIfUpgraded: true)
            await session.sendingDone.wait()
        }
    }
}
