/// Working storage for traced decisions (coverage), reused from one decision to the next: like
/// ``DecisionScratch``, with the caller's tracer kept inside the evaluator, so that neither the
/// evaluator's buffers nor the tracer's are made again for each decision.
///
/// Owned by one caller at a time (a value passed `inout`). It keeps the last engine's compiled
/// rules alive, and whatever its tracer keeps; never a data tree or a user.
package struct TracingScratch<T: Tracer> {
    /// The evaluator of the last engine that used this scratch, emptied after each decision.
    var evaluator: Evaluator<T>?
    /// The engine tables `evaluator` was made for.
    var engine: ObjectIdentifier?

    /// Creates empty scratch storage.
    package init() {}

    /// Runs `body` on the tracer of the last decision (nil before the first): read what it
    /// recorded, and reset it for the next decision, in place.
    package mutating func withTracer<R>(_ body: (inout T) -> R) -> R? {
        guard evaluator != nil else { return nil }
        return body(&evaluator!.tracer)
    }
}

extension TracingScratch: Sendable where T: Sendable {}

extension RulesEngine {
    /// Decides an operation with the scratch's tracer, made by `makeTracer` for the first
    /// decision (and when the engine changes) and kept from one call to the next: the same
    /// decision as ``decide(_:on:auth:now:explain:tracer:)`` without an explanation. The
    /// caller reads and resets the tracer with ``TracingScratch/withTracer(_:)``.
    package func decide<T: Tracer>(
        _ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double,
        tracing scratch: inout TracingScratch<T>, makeTracer: () -> T
    ) -> Decision {
        keep(&scratch.evaluator, for: &scratch.engine, tracer: makeTracer)
        return scratch.evaluator!.decideAndClear(operation, root, auth: auth, now: now, budget: budget)
    }
}
