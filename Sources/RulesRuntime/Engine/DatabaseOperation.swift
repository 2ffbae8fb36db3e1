/// A database operation to authorize (spec §8).
public enum DatabaseOperation: Sendable {
    /// A read at a path, optionally as a query.
    case read(path: String, query: QueryParameters = .none)
    /// Replace the value at a path (`set`, REST `PUT`); a null value deletes.
    case set(path: String, value: DataInput)
    /// Atomic multi-path update at a base path: relative path → value (`update`, REST `PATCH`).
    case update(path: String, values: [(String, DataInput)])
    /// Delete the value at a path (the same as setting null).
    case delete(path: String)
    /// Set a value at `path/key`, where `key` is a new push key (see ``PushKey``).
    case push(path: String, value: DataInput, key: String)

    /// `read`, `set`, `update`, `delete` or `push`.
    public var kindName: String {
        switch self {
        case .read: "read"
        case .set: "set"
        case .update: "update"
        case .delete: "delete"
        case .push: "push"
        }
    }

    /// True for every kind but `read`.
    public var isWrite: Bool {
        if case .read = self { return false }
        return true
    }
}
