/// What a listener is told about a change, in the terms every transport shares.
public enum DatabaseEvent: Sendable, Hashable {
    /// Replace the value at `path` (relative to the listened location; `/` is the location
    /// itself) with `json` (`null` deletes).
    case put(path: String, json: String)
    /// For each member of the JSON object `json`, replace the child at `path/key` (keys may
    /// contain `/`; `null` deletes).
    case patch(path: String, json: String)
    /// The rules no longer allow this listener to read: it is closed.
    case cancel(reason: String)
    /// The listener's credentials are no longer valid: it is closed.
    case authRevoked
}
