import Synchronization

/// Why a session is being closed by the server (set once, from any thread).
final class WireCloseReason: Sendable {
    private let reason = Mutex<String?>(nil)

    /// Sets the reason unless one is set; returns whether this call set it.
    @discardableResult
    func set(_ why: String) -> Bool {
        reason.withLock { if $0 == nil { $0 = why; return true }; return false }
    }

    var value: String? { reason.withLock { $0 } }
}
