/// Working storage for decisions, reused from one decision to the next by a caller that makes
/// many (one per thread or per connection): the evaluator's state (VM stack, snapshot table,
/// path and wildcard buffers) keeps its capacity, so a read decision allocates nothing once warm.
///
/// A value type owned by the caller: nothing is shared between threads, and passing it
/// `inout` makes two simultaneous uses of one scratch a compile-time error. A scratch may serve
/// several engines; it is rebuilt when the engine changes, and it keeps the last engine's compiled
/// rules alive (never a data tree or a user: those are dropped after each decision).
package struct DecisionScratch: Sendable {
    /// The evaluator of the last engine that used this scratch, emptied after each decision.
    var evaluator: Evaluator<NoTracer>?
    /// The engine tables `evaluator` was made for (alive, and so unique, while it holds them).
    var engine: ObjectIdentifier?

    /// Creates empty scratch storage.
    package init() {}
}
