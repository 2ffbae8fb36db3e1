import Foundation
import Synchronization

/// The long-polling sessions of a server, by long-polling id (for polls) and by session id
/// (for the upgrade socket, `/.ws?s=…`). Bounded by ``ServerLimits/maxLongPollSessions``.
/// ``run()`` ends the sessions whose clients are gone and, when the server stops, all of them
/// (each held request is answered with `close`).
final class LongPollSessions: Sendable {
    private let byID = Mutex<[String: LongPollSession]>([:])
    private let limits: ServerLimits
    private let console: ServerConsole

    init(limits: ServerLimits, console: ServerConsole) {
        self.limits = limits
        self.console = console
    }

    /// The server has as many long-polling sessions as it may.
    struct Full: Error {}

    /// Makes a session for `wire`, with a new id and password.
    func open(wire: WireSession, callback: String) throws(Full) -> LongPollSession {
        let session = LongPollSession(id: Self.randomID(), password: Self.randomPassword(), callback: callback, wire: wire, limits: limits) { [weak self] ended in
            self?.byID.withLock { _ = $0.removeValue(forKey: ended.id) }
        }
        try byID.withLock { sessions throws(Full) in
            guard sessions.count < limits.maxLongPollSessions else { throw Full() }
            sessions[session.id] = session
        }
        return session
    }

    /// The session with this id and password, if it is open.
    func session(id: String?, password: String?) -> LongPollSession? {
        guard let id, let password, let session = byID.withLock({ $0[id] }) else { return nil }
        // The password is compared in full whatever it is, so timing tells nothing of it.
        var difference = UInt8(session.password.utf8.count == password.utf8.count ? 0 : 1)
        for (a, b) in zip(session.password.utf8, password.utf8) { difference |= a ^ b }
        return difference == 0 ? session : nil
    }

    /// The open session whose handshake named `session` (the upgrade socket's `s`).
    func session(named session: String) -> LongPollSession? {
        byID.withLock { sessions in sessions.values.first { $0.wire.session == session } }
    }

    /// The sessions open now.
    var count: Int { byID.withLock { $0.count } }

    /// Until the server stops: every second, ends the sessions whose clients are gone; then
    /// ends every session.
    func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let seconds = limits.longPollIdleSeconds
            for session in byID.withLock({ Array($0.values) }) where session.idle(for: seconds) {
                console.say("lp \(session.wire.namespaceName) session \(session.wire.session): the client is gone (no request for \(Int(seconds)) s)")
                session.end()
            }
        }
        for session in byID.withLock({ Array($0.values) }) { session.end(evenIfUpgraded: true) }
    }

    /// A long-polling id: 16 random decimal digits.
    static func randomID() -> String {
        String((0..<16).map { _ in "0123456789".randomElement()! })
    }

    /// A password: 20 random letters and digits (the system's random source).
    static func randomPassword() -> String {
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<20).map { _ in characters.randomElement()! })
    }
}
