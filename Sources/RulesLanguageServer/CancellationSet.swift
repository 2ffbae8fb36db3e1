import Foundation
import RulesSyntax

/// The ids of requests the client cancelled (`$/cancelRequest`), shared between the thread that
/// reads messages, which notes a cancellation as soon as it arrives, and the one that answers
/// requests in order, which answers a cancelled one with `RequestCancelled` instead of running it.
package final class CancellationSet: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: Set<String> = []

    package init() {}

    package func cancel(_ id: String) {
        lock.lock()
        ids.insert(id)
        lock.unlock()
    }

    /// True when `id` was cancelled; the id is forgotten, as each is answered once.
    package func take(_ id: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return ids.remove(id) != nil
    }

    /// The key of a request id (a number or a string).
    package static func key(_ id: JSONNode?) -> String? {
        guard let id else { return nil }
        if let s = id.stringValue { return "s:" + s }
        if let n = id.intValue { return "n:\(n)" }
        return nil
    }
}
