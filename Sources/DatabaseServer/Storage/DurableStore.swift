import DatabaseRules
import Foundation
import GRDB
import Synchronization

/// The durable storage of `rules serve --data DIR`: one SQLite database, `DIR/rules-serve.sqlite`,
/// holding a log of committed writes, a snapshot of each namespace, and the rules uploaded to
/// namespaces.
///
/// A namespace commits a write in memory under its lock and appends it here (``append(_:)``),
/// which only queues it and gives it a sequence number. One worker writes everything queued in one
/// SQLite transaction (group commit), in sequence order, and SQLite syncs it to disk (WAL journal,
/// `synchronous = FULL`) before the transaction returns. A caller acknowledges a write only after
/// ``waitUntilDurable(_:)`` returns for its number, so an acknowledged write is on disk, and since
/// transactions are written in order, every write before it is too. A multi-path update is one
/// change (a row per written location, under one sequence number) in one transaction: it is
/// stored whole or not at all.
///
/// What is logged is the value each written location holds after the write (server values
/// resolved), so a restart replays the log without the rules or the clock. When the log of a
/// namespace has grown past ``compactionBytes`` and past its last snapshot's size, the worker
/// writes a new snapshot of the namespace and deletes the log before it: the file stays within a
/// small multiple of the data, and the snapshot work is at most proportional to the data logged
/// since the last one. A write of a namespace's whole tree (an import, a write at the root) is
/// stored as its snapshot straight away, in place of the log before it.
///
/// A storage failure (a full disk) is permanent for the process: the write being stored is not
/// acknowledged, and every later write is refused with 503, since memory and disk now differ.
package final class DurableStore: Sendable {
    /// The database file.
    package let file: String
    /// Log bytes (per namespace) after which a snapshot replaces the log, unless the last
    /// snapshot was larger.
    package let compactionBytes: Int
    /// Where a storage failure is told.
    private let console: ServerConsole
    private let database: DatabaseQueue
    private let state: Mutex<State>
    private let worker = DispatchQueue(label: "rules-serve.durable-store")

    /// The on-disk format version (`meta.format`).
    static let format = "1"

    /// What is queued for the disk.
    enum Change: Sendable {
        /// A committed write: each written location and the node it now holds (nil: deleted),
        /// and the namespace's whole tree after the write (for a snapshot).
        case write(namespace: String, entries: [(keys: [String], node: DataNode?)], root: DataNode?)
        /// Rules uploaded to a namespace (nil: back to the server's rules).
        case rules(namespace: String, source: String?)
    }

    private struct State: ~Copyable {
        var nextSequence: UInt64
        var durableSequence: UInt64
        var pending: [(sequence: UInt64, change: Change)] = []
        var draining = false
        var waiters: [(sequence: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var failure: String?
        /// Log bytes since each namespace's snapshot, and its snapshot's size.
        var logBytes: [String: Int] = [:]
        var snapshotBytes: [String: Int] = [:]
        var stats = Statistics()
    }

    /// What the store has done since it was opened.
    package struct Statistics: Sendable, Hashable {
        /// Transactions written (each one fsync of the journal).
        package var transactions = 0
        /// Changes written.
        package var changes = 0
        /// Snapshots written.
        package var snapshots = 0
    }

    /// What a store held when it was opened.
    package struct Contents: Sendable {
        /// Each namespace's data, by name.
        package var namespaces: [String: DatabaseRules.Database] = [:]
        /// Rules uploaded to namespaces, by name.
        package var rules: [String: String] = [:]
    }

    /// Opens (or creates) the store in `directory` and reads what it holds. Fails when the
    /// directory cannot be used, when another server has the store open, or when the file is not
    /// one of ours.
    package static func open(directory: String, compactionBytes: Int = 16 * 1024 * 1024, console: ServerConsole = .standardError) throws(StoreError) -> (DurableStore, Contents) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError("\(directory): cannot create the directory: \(error.localizedDescription)")
        }
        let file = URL(fileURLWithPath: directory).appendingPathComponent("rules-serve.sqlite").path
        try checkNotOrphanedLog(file)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .immediateError
        configuration.label = "rules-serve"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // One server at a time: the exclusive lock is taken by the first transaction and
            // kept until the process ends.
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: file, configuration: configuration)
        } catch {
            throw StoreError(Self.describe(error, file: file))
        }
        let contents: Contents
        let counts: (next: UInt64, logBytes: [String: Int], snapshotBytes: [String: Int])
        do {
            (contents, counts) = try queue.write { db in
                try Self.createSchema(db, file: file)
                return try Self.restore(db, file: file)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(Self.describe(error, file: file))
        }
        let store = DurableStore(file: file, database: queue, compactionBytes: compactionBytes, next: counts.next, console: console)
        store.state.withLock {
            $0.logBytes = counts.logBytes
            $0.snapshotBytes = counts.snapshotBytes
        }
        return (store, contents)
    }

    private init(file: String, database: DatabaseQueue, compactionBytes: Int, next: UInt64, console: ServerConsole) {
        self.console = console
        self.file = file
        self.database = database
        self.compactionBytes = compactionBytes
        state = Mutex(State(nextSequence: next, durableSequence: next - 1))
    }

    /// Why writes are refused, once storing one failed.
    package var failure: String? { state.withLock { $0.failure } }

    /// What the store has done since it was opened.
    package var statistics: Statistics { state.withLock { $0.stats } }

    // MARK: - Writing

    /// Queues a change for the disk and returns its sequence number (changes are stored in the
    /// order of their numbers). Call it under the lock that ordered the change.
    func append(_ change: Change) -> UInt64 {
        state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.pending.append((sequence, change))
            if !state.draining {
                state.draining = true
                worker.async { self.drain() }
            }
            return sequence
        }
    }

    /// Queues several changes at once and returns the last one's number. They are queued under
    /// one lock, so the worker takes them in the same batch: they are stored in one transaction,
    /// all or none.
    func append(contentsOf changes: [Change]) -> UInt64 {
        state.withLock { state in
            for change in changes {
                state.pending.append((state.nextSequence, change))
                state.nextSequence += 1
            }
            if !state.draining, !changes.isEmpty {
                state.draining = true
                worker.async { self.drain() }
            }
            return state.nextSequence - 1
        }
    }

    /// Returns when the change numbered `sequence`, and every one before it, is on disk. Throws
    /// when storing failed.
    package func waitUntilDurable(_ sequence: UInt64) async throws(ServerError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: (any Error)?? = state.withLock { state in
                    if state.durableSequence >= sequence { return .some(nil) }
                    if let failure = state.failure { return .some(ServerError(.unavailable, failure)) }
                    state.waiters.append((sequence, continuation))
                    return .none
                }
                switch ready {
                case .some(nil): continuation.resume()
                case .some(let error?): continuation.resume(throwing: error)
                case .none: break
                }
            }
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError(.unavailable, "\(error)")
        }
    }

    /// Returns when everything queued so far is on disk (shutdown).
    package func flush() async throws(ServerError) {
        let last = state.withLock { $0.nextSequence - 1 }
        try await waitUntilDurable(last)
    }

    /// Writes what is queued and closes the database (releasing the directory for another
    /// server). Writes after this are refused.
    package func close() async {
        try? await flush()
        state.withLock { state in
            if state.failure == nil { state.failure = "the server is stopping" }
        }
        worker.sync {}  // the worker has returned from its last drain
        try? database.close()
    }

    /// Writes everything queued, a transaction at a time, until nothing is left.
    private func drain() {
        while true {
            let batch: [(sequence: UInt64, change: Change)] = state.withLock { state in
                if state.pending.isEmpty || state.failure != nil {
                    state.draining = false
                    return []
                }
                defer { state.pending = [] }
                return state.pending
            }
            guard let last = batch.last?.sequence else { return }
            do {
                let sizes = state.withLock { ($0.logBytes, $0.snapshotBytes) }
                let (logBytes, snapshotBytes, snapshots) = try database.write { db in
                    try Self.store(batch, in: db, logBytes: sizes.0, snapshotBytes: sizes.1, compactionBytes: compactionBytes)
                }
                let ready = state.withLock { state in
                    state.logBytes = logBytes
                    state.snapshotBytes = snapshotBytes
                    state.durableSequence = last
                    state.stats.transactions += 1
                    state.stats.changes += batch.count
                    state.stats.snapshots += snapshots
                    let ready = state.waiters.filter { $0.sequence <= last }
                    state.waiters.removeAll { $0.sequence <= last }
                    return ready
                }
                for waiter in ready { waiter.continuation.resume() }
            } catch {
                let message = "durable storage failed, writes are refused until the server restarts: \(Self.describe(error, file: file))"
                console.say("rules serve: \(message)")
                let waiting = state.withLock { state in
                    state.failure = message
                    state.draining = false
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in waiting { waiter.continuation.resume(throwing: ServerError(.unavailable, message)) }
                return
            }
        }
    }

    /// Writes a batch in the current transaction; returns the new log and snapshot sizes and the
    /// number of snapshots written.
    private static func store(
        _ batch: [(sequence: UInt64, change: Change)], in db: GRDB.Database, logBytes: [String: Int], snapshotBytes: [String: Int], compactionBytes: Int
    ) throws -> ([String: Int], [String: Int], Int) {
        var logBytes = logBytes, snapshotBytes = snapshotBytes
        var latest: [String: (sequence: UInt64, root: DataNode?)] = [:]
        var snapshots = 0
        let insert = try db.cachedStatement(sql: "INSERT INTO writes (seq, namespace, path, value) VALUES (?, ?, ?, ?)")
        for (sequence, change) in batch {
            switch change {
            case .write(let namespace, let entries, let root) where entries.count == 1 && entries[0].keys.isEmpty:
                // The whole tree (an import, a write at the root): it is the namespace's new
                // snapshot, and the log before it is not needed any more. One row either way, so
                // the transaction stores all of it or none.
                let value = root?.exportJSON(includePriority: true) ?? "null"
                try db.execute(
                    sql: "INSERT OR REPLACE INTO snapshots (namespace, seq, value) VALUES (?, ?, ?)",
                    arguments: [namespace, Int64(sequence), value])
                try db.execute(sql: "DELETE FROM writes WHERE namespace = ? AND seq <= ?", arguments: [namespace, Int64(sequence)])
                logBytes[namespace] = 0
                snapshotBytes[namespace] = value.utf8.count
                latest[namespace] = nil
                snapshots += 1
            case .write(let namespace, let entries, let root):
                var bytes = 0
                for entry in entries {
                    let value = entry.node?.exportJSON(includePriority: true) ?? "null"
                    bytes += value.utf8.count
                    try insert.execute(arguments: [Int64(sequence), namespace, entry.keys.joined(separator: "/"), value])
                }
                logBytes[namespace, default: 0] += bytes
                latest[namespace] = (sequence, root)
            case .rules(let namespace, let source):
                if let source {
                    try db.execute(sql: "INSERT OR REPLACE INTO rules (namespace, source) VALUES (?, ?)", arguments: [namespace, source])
                } else {
                    try db.execute(sql: "DELETE FROM rules WHERE namespace = ?", arguments: [namespace])
                }
            }
        }
        for (namespace, last) in latest where logBytes[namespace, default: 0] > max(compactionBytes, snapshotBytes[namespace, default: 0]) {
            let value = last.root?.exportJSON(includePriority: true) ?? "null"
            try db.execute(
                sql: "INSERT OR REPLACE INTO snapshots (namespace, seq, value) VALUES (?, ?, ?)",
                arguments: [namespace, Int64(last.sequence), value])
            try db.execute(sql: "DELETE FROM writes WHERE namespace = ? AND seq <= ?", arguments: [namespace, Int64(last.sequence)])
            logBytes[namespace] = 0
            snapshotBytes[namespace] = value.utf8.count
            snapshots += 1
        }
        return (logBytes, snapshotBytes, snapshots)
    }

    // MARK: - Opening

    private static func createSchema(_ db: GRDB.Database, file: String) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS writes (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, namespace TEXT NOT NULL, path TEXT NOT NULL, value TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS writes_by_namespace ON writes (namespace, seq);
            CREATE TABLE IF NOT EXISTS snapshots (namespace TEXT PRIMARY KEY, seq INTEGER NOT NULL, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS rules (namespace TEXT PRIMARY KEY, source TEXT NOT NULL);
            INSERT OR IGNORE INTO meta (key, value) VALUES ('format', '\(format)');
            """)
        let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'")
        guard stored == format else {
            throw StoreError("\(file): storage format \(stored ?? "?") is not the format \(format) this version reads")
        }
    }

    /// Reads every namespace: its snapshot, then the log after it, in order.
    private static func restore(_ db: GRDB.Database, file: String) throws -> (Contents, (next: UInt64, logBytes: [String: Int], snapshotBytes: [String: Int])) {
        var contents = Contents()
        var roots: [String: DataNode?] = [:]
        var snapshotSequence: [String: Int64] = [:]
        var snapshotBytes: [String: Int] = [:]
        var logBytes: [String: Int] = [:]
        var highest: Int64 = 0
        for row in try Row.fetchAll(db, sql: "SELECT namespace, seq, value FROM snapshots") {
            let namespace: String = row[0], sequence: Int64 = row[1], value: String = row[2]
            roots[namespace] = try node(value, file: file, what: "the snapshot of \(namespace)")
            snapshotSequence[namespace] = sequence
            snapshotBytes[namespace] = value.utf8.count
            highest = max(highest, sequence)
        }
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, namespace, path, value FROM writes ORDER BY id")
        var group: (sequence: Int64, namespace: String, entries: [(keys: [String], node: DataNode?)])?
        func finish() {
            guard let g = group else { return }
            let root = roots[g.namespace] ?? nil
            roots[g.namespace] = DataNode.replacing(root, entries: g.entries)
            group = nil
        }
        while let row = try rows.next() {
            let sequence: Int64 = row[0], namespace: String = row[1], path: String = row[2], value: String = row[3]
            highest = max(highest, sequence)
            if sequence <= snapshotSequence[namespace, default: 0] { continue }
            logBytes[namespace, default: 0] += value.utf8.count
            let entry = (keys: path.isEmpty ? [] : path.split(separator: "/", omittingEmptySubsequences: false).map(String.init),
                         node: try node(value, file: file, what: "write \(sequence) at /\(path) in \(namespace)"))
            if group?.sequence != sequence { finish() }
            if group == nil { group = (sequence, namespace, []) }
            group?.entries.append(entry)
        }
        finish()
        for (namespace, root) in roots { contents.namespaces[namespace] = DatabaseRules.Database(root: root) }
        for row in try Row.fetchAll(db, sql: "SELECT namespace, source FROM rules") {
            contents.rules[row[0]] = row[1]
        }
        return (contents, (UInt64(highest) + 1, logBytes, snapshotBytes))
    }

    /// Reads a stored value, building its tree as the text is read (no parsed copy of a large
    /// snapshot besides the tree).
    private static func node(_ json: String, file: String, what: String) throws -> DataNode? {
        var text = json
        let result = text.withUTF8 { utf8 in
            var position = 0
            var reader = DataStreamReader(now: 0, chunkSize: min(max(utf8.count, 1), DataStreamReader.defaultChunkSize)) { buffer in
                let n = min(buffer.count, utf8.count - position)
                if n > 0 { buffer.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[position..<(position + n)]))) }
                position += n
                return n
            }
            return Result { () throws(DataError) -> DataNode? in try reader.read() }
        }
        do {
            return try result.get()
        } catch {
            throw StoreError("\(file): \(what) cannot be read: \(error.message)")
        }
    }

    /// Refuses a data file that is missing or empty while its write-ahead log holds data: SQLite
    /// would open it as a new, empty database and discard the log, so the data would be silently
    /// gone. (SQLite writes the header of a database file before its first commit, so a file of
    /// ours that has a log is never empty.)
    static func checkNotOrphanedLog(_ file: String) throws(StoreError) {
        let log = file + "-wal"
        let manager = FileManager.default
        guard let logSize = (try? manager.attributesOfItem(atPath: log))?[.size] as? Int, logSize > 0 else { return }
        let size = (try? manager.attributesOfItem(atPath: file))?[.size] as? Int
        guard size == nil || size == 0 else { return }
        let state = size == nil ? "is missing" : "is empty (0 bytes)"
        throw StoreError(
            """
            \(file) \(state), but its write-ahead log \(log) holds \(logSize) bytes: the data file was \
            truncated, replaced or deleted, and opening it would start an empty database and discard the \
            log. Nothing was opened or changed. Restore \(file) from a backup (the log belongs with it), \
            or, to start with no data, move both files out of the directory or use another --data directory.
            """)
    }

    private static func describe(_ error: any Error, file: String) -> String {
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                return "\(file) is in use by another server (one `rules serve` at a time per --data directory)"
            }
            if error.resultCode == .SQLITE_NOTADB {
                return "\(file) is not a rules serve database"
            }
            return "\(file): \(error.message ?? "SQLite error \(error.resultCode.rawValue)")"
        }
        return "\(file): \(error)"
    }

    /// Why a store cannot be opened.
    package struct StoreError: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
