import Foundation
import Synchronization

/// The long-polling sessions of a server, by long-polling id (for polls) and by session id
/// (for the upgrade socket, `/.ws?s=…`). Bounded by ``ServerLimits/maxLongPollSessions``.
/// ``run()`` ends the sessions whose clients are gone and, when the server stops, all of them
/// (each held request is answered with `close`).
final class LongPollSessions: Sendable {
    private let byID = Mutex<[String: LongPollSession]>([:])
    /// The sessions' shares by client (see ``open(wire:callback:client:)``).
    private let shares: Mutex<ClientShares>
    private let limits: ServerLimits
    private let console: ServerConsole
    /// The server's budget of bytes being received, which segments waiting for earlier ones
    /// are reserved from.
    private let bodies: BodyBudget?

    init(limits: ServerLimits, console: ServerConsole, bodies: BodyBudget? = nil) {
        self.limits = limits
        self.console = console
        self.bodies = bodies
        shares = Mutex(ClientShares(total: limits.maxLongPollSessions, perClient: limits.maxLongPollSessionsPerClient))
    }

    /// A session refused: the client holds its share, or clients elsewhere hold every session
    /// but the reserve, or the server holds as many as it may.
    struct Full: Error {
        var refusal: ClientShares.Refusal
        /// What the client is told.
        var message: String
        var perClient: Bool { refusal == .client }
    }

    /// Makes a session for `wire`, with a new id and password. `client` names who asks (see
    /// ``ClientKey``); the sessions are shared as ``ClientShares`` says: one client holds at
    /// most its share, clients elsewhere leave the reserve to this machine's pages and tools.
    func open(wire: WireSession, callback: String, client: ClientKey = .local) throws(Full) -> LongPollSession {
        let session = LongPollSession(
            id: Self.randomID(), password: Self.randomPassword(), callback: callback, wire: wire, limits: limits, client: client, bodies: bodies
        ) { [weak self] ended in
            guard let self else { return }
            let removed = byID.withLock { $0.removeValue(forKey: ended.id) != nil }
            if removed {
                shares.withLock { $0.remove(ended.client) }
            }
        }
        try shares.withLock { shares throws(Full) in
            if let refusal = shares.refusal(for: client) {
                throw Full(refusal: refusal, message: shares.message(refusal, client: client, resource: "long-polling sessions", setting: "max-long-poll-sessions-per-client"))
            }
            byID.withLock { $0[session.id] = session }
            shares.add(client)
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
