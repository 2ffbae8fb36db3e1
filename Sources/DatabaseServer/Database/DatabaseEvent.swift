/// What a listener is told about a change, in the terms every transport shares.
package enum DatabaseEvent: Sendable, Equatable {
    /// Replace the value at `path` (relative to the listened location; `/` is the location
    /// itself) with `value` (`null` deletes).
    case put(path: String, value: RenderedValue)
    /// For each member of the object `value`, replace the child at `path/key` (keys may
    /// contain `/`; `null` deletes).
    case patch(path: String, value: RenderedValue)
    /// The rules no longer allow this listener to read: it is closed.
    case cancel(reason: String)
    /// The listener's credentials are no longer valid: it is closed.
    case authRevoked
}

extension DatabaseEvent {
    /// Events are equal when they say the same in the plain form.
    package static func == (a: DatabaseEvent, b: DatabaseEvent) -> Bool {
        switch (a, b) {
        case (.put(let p, let x), .put(let q, let y)), (.patch(let p, let x), .patch(let q, let y)): p == q && x.plain == y.plain
        case (.cancel(let x), .cancel(let y)): x == y
        case (.authRevoked, .authRevoked): true
        default: false
        }
    }
}
