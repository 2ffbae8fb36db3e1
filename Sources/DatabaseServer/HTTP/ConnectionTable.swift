import DatabaseRules
import NIOCore
import Synchronization

/// The server's open HTTP connections (WebSocket ones included), each idle (no request in
/// progress: it has not sent a whole request head, or its last response is finished) or busy.
/// A connection that holds a place for long (a stream, a WebSocket connection, a request body
/// still arriving) is *held* by its client (``ClientKey``) under the ``ClientShares`` of the
/// table: one client holds at most its share, clients elsewhere leave the reserve to this
/// machine's.
///
/// When a new connection makes the table hold ``limit`` (the server's `maxConnections`), one
/// connection is closed to make room: the oldest idle one that has not served this machine (it
/// never finished a request, or its last came from elsewhere); else the newest held by a client
/// elsewhere; else the newest held by this machine's clients beyond the reserve; else the oldest
/// idle one of this machine's (a kept-alive connection of the developer's app). Newest first:
/// a client that opens connections under ever new names (its headers are its own) loses its
/// latest, not the places others have held for long. A busy connection that holds nothing (a
/// short request being answered) is never closed.
final class ConnectionTable: Sendable {
    /// The connections that may be open at once.
    let limit: Int
    private struct Entry {
        let channel: any Channel
        var idle: Bool
        /// Whether its last request came from this machine.
        var local = false
        /// The client that holds the connection, and when it took it (a running number).
        var holder: (client: ClientKey, kind: ClientShares.Kind, order: Int)?
    }
    private struct State {
        var next = 0
        var order = 0
        var entries: [Int: Entry] = [:]
        var shed = 0
        var shares: ClientShares

        mutating func forget(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            if let holder = entry.holder { shares.remove(holder.client, kind: holder.kind) }
            return entry
        }

        /// The connection to close to make room for `newcomer`, if any.
        func victim(besides newcomer: Int) -> Int? {
            var oldestIdle: Int?
            var oldestIdleHere: Int?
            var newestElsewhere: (id: Int, order: Int)?
            var newestHere: (id: Int, order: Int)?
            for (key, entry) in entries where key != newcomer {
                if entry.idle {
                    if entry.local {
                        if key < (oldestIdleHere ?? .max) { oldestIdleHere = key }
                    } else if key < (oldestIdle ?? .max) {
                        oldestIdle = key
                    }
                } else if let holder = entry.holder {
                    if holder.client.isLocal {
                        if holder.order > (newestHere?.order ?? .min) { newestHere = (key, holder.order) }
                    } else if holder.order > (newestElsewhere?.order ?? .min) {
                        newestElsewhere = (key, holder.order)
                    }
                }
            }
            if let oldestIdle { return oldestIdle }
            if let newestElsewhere { return newestElsewhere.id }
            if shares.heldLocally > shares.reserve, let newestHere { return newestHere.id }
            return oldestIdleHere
        }
    }
    private let state: Mutex<State>

    /// A table of `limit` places, of which one client may hold `perClient` (0: an eighth).
    init(limit: Int, perClient: Int = 0) {
        self.limit = max(1, limit)
        state = Mutex(State(shares: ClientShares(total: self.limit, perClient: perClient)))
    }

    /// The places one client may hold.
    var perClient: Int { state.withLock { $0.shares.perClient } }

    /// Has `client` hold connection `id` (a stream, a WebSocket connection, a body being
    /// received); returns why it may not (counting nothing), or nil.
    func hold(_ id: Int, client: ClientKey, kind: ClientShares.Kind = .longLived) -> ClientShares.Refusal? {
        state.withLock { state in
            guard var entry = state.entries[id] else { return nil }
            if let holder = entry.holder, holder.client == client, holder.kind == kind { return nil }
            if let old = entry.holder { state.shares.remove(old.client, kind: old.kind) }
            entry.holder = nil
            if let refusal = state.shares.refusal(for: client, kind: kind) {
                state.entries[id] = entry
                return refusal
            }
            state.order += 1
            entry.holder = (client, kind, state.order)
            state.entries[id] = entry
            state.shares.add(client, kind: kind)
            return nil
        }
    }

    /// Connection `id` holds nothing any more (its stream ended, its body arrived).
    func unhold(_ id: Int) {
        state.withLock { state in
            guard let holder = state.entries[id]?.holder else { return }
            state.entries[id]?.holder = nil
            state.shares.remove(holder.client, kind: holder.kind)
        }
    }

    /// The body of the 503 a connection refused a place gets.
    func refusalJSON(_ refusal: ClientShares.Refusal, client: ClientKey, kind: ClientShares.Kind) -> String {
        let message = state.withLock {
            $0.shares.message(
                refusal, client: client, resource: kind == .upload ? "request bodies being received" : "streams and WebSocket connections",
                setting: "max-long-lived-per-client")
        }
        return PrettyJSON.format(#"{"error":"# + JSONText.quote(message) + "}")
    }

    /// The connections open now.
    var count: Int { state.withLock { $0.entries.count } }
    /// How many connections were closed to make room.
    var shedCount: Int { state.withLock { $0.shed } }

    /// Registers a new (idle) connection; returns its number. When the table is full, closes
    /// one other connection (see the type's description).
    func add(_ channel: any Channel) -> Int {
        let (id, victim) = state.withLock { state -> (Int, (any Channel)?) in
            state.next += 1
            let id = state.next
            state.entries[id] = Entry(channel: channel, idle: true)
            guard state.entries.count >= limit, let victim = state.victim(besides: id), let entry = state.forget(victim) else { return (id, nil) }
            state.shed += 1
            return (id, entry.channel)
        }
        victim?.close(promise: nil)
        return id
    }

    /// Forgets a closed connection.
    func remove(_ id: Int) {
        state.withLock { _ = $0.forget(id) }
    }

    /// Marks a connection idle or busy (`local`: its last request came from this machine).
    func setIdle(_ id: Int, _ idle: Bool, local: Bool? = nil) {
        state.withLock { state in
            state.entries[id]?.idle = idle
            if let local { state.entries[id]?.local = local }
        }
    }
}
