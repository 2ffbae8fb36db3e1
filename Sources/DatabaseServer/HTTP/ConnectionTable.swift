import NIOCore
import Synchronization

/// The server's open HTTP connections (WebSocket ones included), each idle (no request in
/// progress: it has not sent a whole request head, or its last response is finished) or busy.
/// When a new connection makes the table hold ``limit`` (the server's `maxConnections`), the
/// oldest idle connection is closed: a flood of silent or slow clients cannot keep a normal
/// client waiting, and connections with a request in progress (streams, WebSockets, uploads) are
/// never shed.
final class ConnectionTable: Sendable {
    /// The connections that may be open at once.
    let limit: Int
    private struct Entry {
        let channel: any Channel
        var idle: Bool
    }
    private struct State {
        var next = 0
        var entries: [Int: Entry] = [:]
        var shed = 0
    }
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

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
            guard let oldest, let entry = state.entries.removeValue(forKey: oldest) else { return (id, nil) }
            state.shed += 1
            return (id, entry.channel)
        }
        victim?.close(promise: nil)
        return id
    }

    /// Forgets a closed connection.
    func remove(_ id: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// Marks a connection idle or busy.
    func setIdle(_ id: Int, _ idle: Bool) {
        state.withLock { $0.entries[id]?.idle = idle }
    }
}
