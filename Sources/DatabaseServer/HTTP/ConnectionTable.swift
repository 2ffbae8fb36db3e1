import DatabaseRules
import NIOCore
import Synchronization

/// The server's open HTTP connections (WebSocket ones included), each idle (no request in
/// progress: it has not sent a whole request head, or its last response is finished) or busy.
/// When a new connection makes the table hold ``limit`` (the server's `maxConnections`), the
/// oldest idle connection is closed: a flood of silent or slow clients cannot keep a normal
/// client waiting. Long-lived connections (streams, WebSockets) are counted by client
/// (``RequestOrigin/client``): one client holds at most ``perClient`` of them, and when the
/// table is full with no idle connection, the oldest long-lived connection of the client that
/// holds the most is closed, so that no client can take every place.
final class ConnectionTable: Sendable {
    /// The connections that may be open at once.
    let limit: Int
    /// The long-lived connections one client may hold.
    let perClient: Int
    private struct Entry {
        let channel: any Channel
        var idle: Bool
        /// The client of a long-lived connection.
        var client: String?
    }
    private struct State {
        var next = 0
        var entries: [Int: Entry] = [:]
        var shed = 0
        /// Long-lived connections by client.
        var byClient: [String: Int] = [:]

        mutating func forget(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            if let client = entry.client {
                byClient[client, default: 1] -= 1
                if byClient[client] == 0 { byClient.removeValue(forKey: client) }
            }
            return entry
        }
    }
    private let state = Mutex(State())

    init(limit: Int, perClient: Int = .max) {
        self.limit = max(1, limit)
        self.perClient = max(1, perClient)
    }

    /// Counts connection `id` as long-lived for `client`; false (counting nothing) when the
    /// client holds as many as it may.
    func holdLongLived(_ id: Int, client: String) -> Bool {
        state.withLock { state in
            guard var entry = state.entries[id] else { return true }
            if entry.client == client { return true }
            guard state.byClient[client, default: 0] < perClient else { return false }
            if let old = entry.client { state.byClient[old, default: 1] -= 1 }
            entry.client = client
            state.entries[id] = entry
            state.byClient[client, default: 0] += 1
            return true
        }
    }

    /// The body of the 503 a long-lived connection over its client's share gets.
    static func overShareJSON(_ perClient: Int) -> String {
        PrettyJSON.format(#"{"error":"# + JSONText.quote(
            "Too many streams and WebSocket connections from this client: the limit is \(perClient) (rules serve --limit max-long-lived-per-client=N); close some and retry.") + "}")
    }

    /// The connections open now.
    var count: Int { state.withLock { $0.entries.count } }
    /// How many idle connections were closed to make room.
    var shedCount: Int { state.withLock { $0.shed } }

    /// Registers a new (idle) connection; returns its number. When the table is full, closes the
    /// oldest idle connection other than this one.
    func add(_ channel: any Channel) -> Int {
        let (id, victim) = state.withLock { state -> (Int, (any Channel)?) in
            state.next += 1
            let id = state.next
            state.entries[id] = Entry(channel: channel, idle: true)
            guard state.entries.count >= limit else { return (id, nil) }
            var oldest: Int?
            for (key, entry) in state.entries where entry.idle && key != id && key < (oldest ?? .max) { oldest = key }
            if oldest == nil, let greediest = state.byClient.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key {
                // Every place is busy: the client holding the most long-lived connections gives
                // up its oldest.
                for (key, entry) in state.entries where entry.client == greediest && key != id && key < (oldest ?? .max) { oldest = key }
            }
            guard let oldest, let entry = state.forget(oldest) else { return (id, nil) }
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

    /// Marks a connection idle or busy.
    func setIdle(_ id: Int, _ idle: Bool) {
        state.withLock { $0.entries[id]?.idle = idle }
    }
}
