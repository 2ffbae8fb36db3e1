/// The data a ruleset is evaluated against: an immutable tree, cheap to copy and to keep old
/// versions of (a write copies only the nodes along its path).
public struct Database: Sendable {
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

    /// The node at a path, if any.
    public func node(at path: String) -> DataNode? {
        guard let p = try? DataPath(validating: path) else { return nil }
        return root?.descendant(p.keys)
    }
}
