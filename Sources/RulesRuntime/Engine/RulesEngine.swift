import RulesCompiler
import RulesSyntax

/// Decides reads, sets, deletes, pushes and multi-path updates against a compiled ruleset
/// (spec §8): `.read`/`.write` only along the path, any true grants; `.validate` on every
/// non-null node the write carries and on its ancestors, against one merged new tree; never on null.
///
/// The engine is an immutable value; share it across threads. Each call makes its own scratch
/// state, or uses the caller's ``DecisionScratch`` (one per thread) to avoid allocating it.
package struct RulesEngine: Sendable {
    /// The rules.
    package let ruleset: CompiledRuleset

    /// Flat copies of the node and rule facts the hot loops read.
    let tables: EngineTables

    /// The work one decision may do (``EvaluationBudget/default`` unless set).
    package var budget: EvaluationBudget = .default

    /// How much an explanation records (``ExplanationLimits/default`` unless set).
    package var explanationLimits: ExplanationLimits = .default

    /// Creates an engine for a ruleset.
    package init(ruleset: CompiledRuleset) {
        self.ruleset = ruleset
        self.tables = EngineTables(ruleset)
    }

    /// Decides an operation on the tree `root` for the user `auth` at time `now` (ms).
    ///
    /// With `redactUnreadable` (and `explain`), the explanation is safe to show to the caller:
    /// every value in it that was derived from data the caller may not read (by the same rules'
    /// `.read`, for `auth`, on `root`) is shown as `<unreadable>`, and it leaves out what the
    /// fast decision would not have revealed (see ``Explanation`` and `docs/decisions.md`).
    /// The decision itself is the same either way.
    package func decide(
        _ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double, explain: Bool = false,
        redactUnreadable: Bool = false
    ) -> Decision {
        if explain {
            var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: RecordingTracer(), explain: true)
            e.budget = budget
            e.recording = ExplanationRecording(limits: explanationLimits, redact: redactUnreadable)
            return e.decide(operation, root)
        }
        var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: NoTracer(), explain: false)
        e.budget = budget
        return e.decide(operation, root)
    }

    /// Decides an operation using the caller's scratch storage, which keeps its capacity from
    /// one call to the next: the same decision as ``decide(_:on:auth:now:explain:)`` without
    /// an explanation, and without heap allocations for a read once the scratch is warm.
    package func decide(_ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double, scratch: inout DecisionScratch) -> Decision {
        // The scratch keeps a whole evaluator for the last engine it served: nothing to build,
        // move in or tear down per call.
        keep(&scratch.evaluator, for: &scratch.engine, tracer: NoTracer.init)
        return scratch.evaluator!.decideAndClear(operation, root, auth: auth, now: now, budget: budget)
    }

    /// Decides an operation on `root` and, when it is an allowed write, applies it there: the
    /// same decision as ``decide(_:on:auth:now:scratch:)``, and `root` becomes its `newRoot`.
    /// A set or delete is written in place into the nodes on its path that nothing but `root`
    /// holds (no snapshot, reader or other version of the tree), instead of copied with every
    /// sibling retained; a tree that is shared is copied along the path as before. Copies of
    /// `root` made earlier never change.
    package func apply(_ operation: DatabaseOperation, to root: inout DataNode?, auth: AuthValue = .null, now: Double,
                       scratch: inout DecisionScratch) -> Decision {
        keep(&scratch.evaluator, for: &scratch.engine, tracer: NoTracer.init)
        return scratch.evaluator!.applyAndClear(operation, &root, auth: auth, now: now, budget: budget)
    }

    /// ``apply(_:to:auth:now:scratch:)`` with scratch storage made for the call.
    package func apply(_ operation: DatabaseOperation, to root: inout DataNode?, auth: AuthValue = .null, now: Double) -> Decision {
        var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: NoTracer(), explain: false)
        return e.applyAndClear(operation, &root, auth: auth, now: now, budget: budget)
    }

    /// Makes `evaluator` this engine's (with a tracer from `tracer`) unless it already is, as
    /// `engine` records: what a scratch keeps between decisions.
    func keep<T: Tracer>(_ evaluator: inout Evaluator<T>?, for engine: inout ObjectIdentifier?, tracer: () -> T) {
        if engine == ObjectIdentifier(tables), evaluator != nil { return }
        evaluator = Evaluator(ruleset: ruleset, tables: tables, auth: .null, now: 0, tracer: tracer(), explain: false)
        engine = ObjectIdentifier(tables)
    }

    /// Decides an operation with the caller's tracer, which sees every sub-expression value (for
    /// coverage). When `explain` is true the engine calls `tracer.take()` once after each rule it
    /// evaluates, in the order of ``Explanation/evaluations``, and renders what it returns.
    package func decide<T: Tracer>(
        _ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double, explain: Bool,
        tracer: inout T
    ) -> Decision {
        var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: tracer, explain: explain)
        e.budget = budget
        if explain { e.recording = ExplanationRecording(limits: explanationLimits, redact: false) }
        let decision = e.decide(operation, root)
        tracer = e.tracer
        return decision
    }
}
