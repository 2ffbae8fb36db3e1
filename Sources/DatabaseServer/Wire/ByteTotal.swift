import Synchronization

/// Bytes of one kind held across the server against a total: request bodies in flight
/// (``BodyBudget``), and what every realtime session holds together
/// (the bounds and names of query listens, ``ServerLimits/maxListenQueryBytesTotal``; the
/// messages of queued onDisconnect operations, ``ServerLimits/maxOnDisconnectBytesTotal``).
/// A session reserves what it is about to keep, and gives it back when it lets it go: on an
/// unlisten or a cancel, when the operations run, when the connection closes.
package final class ByteTotal: Sendable {
    /// The bytes all sessions may hold together.
    package let total: Int
    private let used = Mutex(0)

    /// A total of `total` bytes.
    package init(total: Int) { self.total = total }

    /// The bytes held now.
    package var inUse: Int { used.withLock { $0 } }

    /// Reserves `bytes`, or returns false (reserving nothing) when that would go over the total.
    func reserve(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard bytes <= total - used else { return false }
            used += bytes
            return true
        }
    }

    /// Gives back what ``reserve(_:)`` took.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.withLock { $0 -= bytes }
    }
}
