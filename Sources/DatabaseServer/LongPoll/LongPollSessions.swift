import Foundation
import Synchronization

/// The long-polling sessions of a server, by long-polling id (for polls) and by session id
/// (for the upgrade socket, `/.ws?s=…`). Bounded by ``ServerLimits/maxLongPollSessions``.
/// ``run()`` ends the sessions whose clients are gone and, when the server stops, all of them
/// (each held request is answered with `close`).
final class LongPollSessions: Sendable {
    private let byID = Mutex<[String: LongPollSession]>([:])
    /// Sessions by client (see ``open(wire:callback:client:)``).
    private let perClient = Mutex<[String: Int]>([:])
    private let limits: ServerLimits
    private let console: ServerConsole
    /// The server's budget of bytes being received, which segments waiting for earlier ones
    /// are reserved from.
    private let bodies: BodyBudget?

    init(limits: ServerLimits, console: ServerConsole, bodies: BodyBudget? = nil) {
        self.limits = limits
        self.console = console
        self.bodies = bodies
    }

    /// The server has as many long-polling sessions as it may (``perClient``: the client has).
    struct Full: Error {
        var perClient = false
    }

    /// Makes a session for `wire`, with a new id and password. `client` names who asks: the
    /// page's origin or site as its request shows it, or the address it comes from; one client
    /// holds at most ``ServerLimits/maxLongPollSessionsPerClient`` sessions, so that one page
    /// cannot take every place.
    func open(wire: WireSession, callback: String, client: String = "") throws(Full) -> LongPollSession {
        let session = LongPollSession(
            id: Self.randomID(), password: Self.randomPassword(), callback: callback, wire: wire, limits: limits, client: client, bodies: bodies
        ) { [weak self] ended in
            guard let self else { return }
            let removed = byID.withLock { $0.removeValue(forKey: ended.id) != nil }
            if removed {
                perClient.withLock { counts in
                    counts[ended.client, default: 1] -= 1
                    if counts[ended.client] == 0 { counts.removeValue(forKey: ended.client) }
                }
            }
        }
        try perClient.withLock { counts throws(Full) in
            try byID.withLock { sessions throws(Full) in
                guard sessions.count < limits.maxLongPollSessions else { throw Full() }
                guard counts[client, default: 0] < limits.maxLongPollSessionsPerClient else { throw Full(perClient: true) }
                sessions[session.id] = session
            }
            counts[client, default: 0] += 1
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
