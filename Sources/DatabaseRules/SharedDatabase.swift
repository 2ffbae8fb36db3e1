import Synchronization

/// A database shared between threads: reads take the current snapshot without waiting for
/// writers, and writes are decided and committed one at a time, so no write is decided against
/// a tree that another write has already replaced.
///
/// ```swift
/// let shared = SharedDatabase()
/// let rules = try Ruleset(source: #"{"rules": {".read": true, ".write": true}}"#)
/// DispatchQueue.concurrentPerform(iterations: 8) { i in
///     shared.apply(.set(path: "/n/\(i)", value: .number(Double(i))), rules: rules)
/// }
/// ```
public final class SharedDatabase: Sendable {
    private let state: Mutex<Database>

    /// A shared database starting from `database`.
    public init(_ database: Database = Database()) {
        state = Mutex(database)
    }

    /// The current snapshot. It never changes afterwards: later writes make new snapshots.
    public var current: Database {
        state.withLock { $0 }
    }

    /// Decides an operation on the current data and commits it when it is an allowed write,
    /// while holding the write lock.
    @discardableResult
    public func apply(
        _ operation: DatabaseOperation, rules: Ruleset, auth: AuthValue = .null, now: Double? = nil, explain: Bool = false
    ) -> Decision {
        state.withLock { $0.apply(operation, rules: rules, auth: auth, now: now, explain: explain) }
    }

    /// A compare-and-set by node hash, decided and committed under the write lock (see
    /// ``Database/compareAndSet(path:expectedHash:value:rules:auth:now:explain:)``).
    public func compareAndSet(
        path: String, expectedHash: String, value: DataInput, rules: Ruleset, auth: AuthValue = .null,
        now: Double? = nil, explain: Bool = false
    ) -> CompareAndSetResult {
        state.withLock {
            $0.compareAndSet(path: path, expectedHash: expectedHash, value: value, rules: rules, auth: auth, now: now, explain: explain)
        }
    }

    /// Runs `body` with the database under the write lock, for work that must see and change
    /// the data atomically (for example a decision followed by notifying listeners in commit
    /// order). Keep it short: every writer waits for it.
    public func withLock<T>(_ body: (inout Database) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }
}
