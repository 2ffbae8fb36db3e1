import Dispatch
import Synchronization

/// Where a namespace's rule evaluations and commits run: off Swift's shared cooperative pool, so
/// that a slow decision (bounded by the library's evaluation budget) occupies a thread of its own
/// and never holds back the tasks of other requests or other namespaces. (A request known to be
/// cheap is first tried on the thread that received it: see ``Namespace``.)
///
/// Writes of one namespace run one at a time on its serial queue, in the order they arrive;
/// reads, listens and checks run on a concurrent queue shared by all namespaces and never wait
/// for a write (they decide on the snapshot current when they start).
struct NamespaceExecutor: Sendable {
    private let writes: DispatchQueue
    /// Where the namespace's query listeners' windows are selected (``Namespace``).
    private let listeners: DispatchQueue
    /// Writes queued or running on `writes`.
    private let queued = QueuedWrites()

    /// Counts the writes on the queue.
    private final class QueuedWrites: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Whether a write is queued or running on the namespace's write queue: a write decided
    /// where its request arrived (``Namespace``'s fast path) must not overtake it.
    var hasQueuedWrites: Bool { queued.count.load(ordering: .acquiring) > 0 }

    /// The queue every namespace's reads are decided on.
    private static let reads = DispatchQueue(label: "rules-serve.reads", qos: .userInitiated, attributes: .concurrent)

    /// An executor for the namespace `name`.
    init(name: String) {
        writes = DispatchQueue(label: "rules-serve.writes.\(name)", qos: .userInitiated)
        listeners = DispatchQueue(label: "rules-serve.listeners.\(name)", qos: .utility)
    }

    /// Runs `body` on the namespace's listener queue, after what was queued there before it.
    func listenerWork(_ body: @escaping @Sendable () -> Void) {
        listeners.async(execute: body)
    }

    /// Runs `body` on the namespace's write queue, after the writes queued before it.
    func write<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            enqueueWrite { continuation.resume(returning: body()) }
        }
    }

    /// Queues `body` on the namespace's write queue without waiting for it (the writes queued
    /// after it wait for it to end).
    func enqueueWrite(_ body: @escaping @Sendable () -> Void) {
        let queued = queued
        queued.count.add(1, ordering: .sequentiallyConsistent)
        writes.async {
            body()
            queued.count.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Runs `body` on the shared read queue.
    func read<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await Self.offPool(body)
    }

    /// Runs `body` on the shared read queue: work proportional to what a client sent (decoding a
    /// long message) that must not hold a thread of the cooperative pool.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            reads.async { continuation.resume(returning: body()) }
        }
    }
}
