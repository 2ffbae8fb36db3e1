import DatabaseRules
import Synchronization

/// Decision storage shared by the requests one set of rules decides where they arrive (see
/// ``NamespaceRules/decideHere(_:on:auth:now:)``): each decision takes a scratch, or makes one,
/// and gives it back, so a warm server makes no evaluator per request. At most ``capacity``
/// scratches are kept (about one per thread that decides at once); they hold no data tree or
/// user between decisions.
final class ScratchPool: Sendable {
    /// One scratch, owned by one decision at a time.
    private final class Box: @unchecked Sendable {
        // Only the decision that took the box from the pool touches it.
        var scratch = DecisionScratch()
    }

    /// Scratches kept.
    static let capacity = 16

    private let free = Mutex<[Box]>([])

    /// Decides `operation` with `engine` in a scratch of the pool.
    func decide(_ engine: RulesEngine, _ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue, now: Double) -> Decision {
        let box = free.withLock { $0.popLast() } ?? Box()
        let decision = engine.decide(operation, on: root, auth: auth, now: now, scratch: &box.scratch)
        free.withLock { if $0.count < Self.capacity { $0.append(box) } }
        return decision
    }
}
