import Synchronization

/// The bytes waiting in one client's outgoing queue, against a cap: a client that reads too
/// slowly is cut off before the server holds more than the cap for it.
///
/// A queue that is empty takes any one item, however large (the first value of a listen on a big
/// location), so the cap bounds what piles up, not what can be sent.
final class QueueBudget: Sendable {
    /// The most bytes waiting at once (beyond one item).
    let limit: Int
    /// The server-wide count every client's queue also takes from (nil: this queue alone).
    let shared: Shared?
    private let queued = Atomic<Int>(0)
    private let refused = Atomic<Bool>(false)

    init(limit: Int, shared: Shared? = nil) {
        self.limit = limit
        self.shared = shared
    }

    /// The bytes waiting for every slow reader together (``ServerLimits/maxQueuedBytesTotal``).
    /// An item for a reader with nothing waiting is always taken (counted even past the total:
    /// a reader that keeps up is never cut off); one for a reader that already has something
    /// waiting is refused once the total is spent, and that reader is cut off.
    final class Shared: Sendable {
        /// The most bytes waiting at once, across readers.
        let total: Int
        private let used = Atomic<Int>(0)

        init(total: Int) { self.total = total }

        /// The bytes waiting now.
        var bytes: Int { used.load(ordering: .relaxed) }

        func take(_ bytes: Int, queueWasEmpty: Bool) -> Bool {
            var current = used.load(ordering: .relaxed)
            while true {
                if !queueWasEmpty && current + bytes > total { return false }
                let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
                if exchanged { return true }
                current = original
            }
        }

        func release(_ bytes: Int) { used.subtract(bytes, ordering: .relaxed) }
    }

    /// Whether an item was refused: the client is being cut off, and what waits is not worth
    /// sending.
    var overflowed: Bool { refused.load(ordering: .relaxed) }

    /// The bytes waiting now.
    var bytes: Int { queued.load(ordering: .relaxed) }

    /// Counts `bytes` more as waiting; false, counting nothing, when the queue holds something
    /// already and would go over the limit.
    func take(_ bytes: Int) -> Bool {
        var current = queued.load(ordering: .relaxed)
        while true {
            if current > 0 && current + bytes > limit {
                refused.store(true, ordering: .relaxed)
                return false
            }
            let (exchanged, original) = queued.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged {
                if let shared, !shared.take(bytes, queueWasEmpty: current == 0) {
                    queued.subtract(bytes, ordering: .relaxed)
                    refused.store(true, ordering: .relaxed)
                    return false
                }
                return true
            }
            current = original
        }
    }

    /// Queues `item` (counted as `bytes`) if both bounds allow it: these bytes, and the
    /// stream's own count of items. False, with nothing queued and the queue marked overflowed,
    /// if either is exceeded.
    func admit<Item: Sendable>(_ item: Item, bytes: Int, into continuation: AsyncStream<Item>.Continuation) -> Bool {
        guard take(bytes) else { return false }
        if case .dropped = continuation.yield(item) {
            release(bytes)
            refused.store(true, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Counts `bytes` as sent.
    func release(_ bytes: Int) {
        queued.subtract(bytes, ordering: .relaxed)
        shared?.release(bytes)
    }
}
