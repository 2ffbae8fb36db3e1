/// The data a ruleset is evaluated against: an immutable tree, cheap to copy and to keep old
/// versions of (a write copies only the nodes along its path).
///
/// `Database` is a value: each copy is a snapshot that no later write changes. To share one
/// database between threads, with writes decided and committed one at a time, use
/// ``SharedDatabase``.
public struct Database: Sendable, CustomStringConvertible {
    /// The root node (nil for an empty database).
    public private(set) var root: DataNode?

    /// An empty database, or one holding `root`.
    public init(root: DataNode? = nil) { self.root = root }

    /// A database holding a JSON document (the export format with `.value`/`.priority` is accepted).
    public init(json: String) throws(DataError) {
        self.root = try DataInputReader.read(json: json).resolved(now: 0, existing: nil)
    }

    /// Applies an allowed write: the database becomes the tree the rules approved. A denied
    /// decision changes nothing. Returns whether anything was applied.
    @discardableResult
    public mutating func commit(_ decision: Decision) -> Bool {
        guard decision.allowed else { return false }
        root = decision.newRoot
        return true
    }

    /// Decides an operation and, when it is an allowed write, commits it: one call for what a
    /// server does with each request.
    ///
    /// A set or delete is written into this database's own tree: the nodes on its path that no
    /// copy of the database (and no decision's `newRoot`) holds are changed in place rather than
    /// copied, so a database that keeps no old versions pays for no copies. Copies made earlier
    /// keep their data, as always.
    /// - Returns: the decision (its `Decision.allowed` says whether the database changed).
    @discardableResult
    public mutating func apply(
        _ operation: DatabaseOperation, rules: Ruleset, auth: AuthValue = .null, now: Double? = nil, explain: Bool = false
    ) -> Decision {
        if operation.isWrite && !explain { return rules.apply(operation, to: &root, auth: auth, now: now) }
        let decision = rules.decide(operation, on: self, auth: auth, now: now, explain: explain)
        if operation.isWrite { commit(decision) }
        return decision
    }

    /// Replaces the value at `path` only if the node there still has the hash `expectedHash`
    /// (``NodeHash``; `""` for no data), after the rules allow the write: the step a transaction
    /// retries until it succeeds.
    ///
    /// The rules are checked first, so a caller who may not write learns nothing about the
    /// current value. A stale hash changes nothing.
    public mutating func compareAndSet(
        path: String, expectedHash: String, value: DataInput, rules: Ruleset, auth: AuthValue = .null,
        now: Double? = nil, explain: Bool = false
    ) -> CompareAndSetResult {
        let decision = rules.decide(.set(path: path, value: value), on: self, auth: auth, now: now, explain: explain)
        guard decision.allowed else {
            return CompareAndSetResult(status: .denied, decision: decision, hash: "")
        }
        let current = hash(at: path)
        guard current == expectedHash else {
            return CompareAndSetResult(status: .stale, decision: decision, hash: current)
        }
        commit(decision)
        return CompareAndSetResult(status: .committed, decision: decision, hash: hash(at: path))
    }

    /// The node at a path, if any (nil for an invalid path).
    public func node(at path: String) -> DataNode? {
        guard let p = try? DataPath(validating: path) else { return nil }
        return root?.descendant(p.keys)
    }

    /// The value at a path, as a client's `val()` would read it (``DataValue/null`` when nothing
    /// is stored there).
    public func value(at path: String = "/") -> DataValue {
        DataValue(node(at: path))
    }

    /// The children of the node at a path, in key order (empty for a leaf or no data).
    public func children(at path: String = "/") -> [(key: String, node: DataNode)] {
        var out: [(key: String, node: DataNode)] = []
        node(at: path)?.forEachChild { key, child in out.append((key, child)) }
        return out
    }

    /// The value at a path as compact JSON: `null` when nothing is stored. Without priorities,
    /// objects with integer keys are written as arrays (as a server answers a read); with them,
    /// the export format (`.value` / `.priority`) is used.
    public func exportJSON(at path: String = "/", includePriority: Bool = false) -> String {
        guard let node = node(at: path) else { return "null" }
        return node.exportJSON(includePriority: includePriority, arrays: !includePriority)
    }

    /// The node hash at a path (``NodeHash``): `""` when nothing is stored there.
    public func hash(at path: String = "/") -> String {
        NodeHash.of(node(at: path))
    }

    /// The whole database as compact JSON, priorities included.
    public var description: String {
        root?.exportJSON(includePriority: true) ?? "null"
    }
}
