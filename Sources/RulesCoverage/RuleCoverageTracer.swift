import RulesRuntime

/// The cheap tracer of coverage: for each rule the engine evaluates, its index, its outcome and
/// the boolean value of every expression node the VM completed, with nothing rendered for people.
/// `rules test` decides every step with it and asks for an explanation only when a step fails.
package struct RuleCoverageTracer: Tracer {
    /// One rule evaluation.
    package struct Evaluation: Sendable {
        /// The rule's index in the ruleset.
        package var rule: Int32
        /// What it came to.
        package var outcome: RuleOutcome
        /// Node id → boolean value; nodes with other values are left out.
        package var values: [Int32: Bool]
    }

    private var current: [Int32: Bool] = [:]
    /// The evaluations since the last ``reset()``, in order.
    package private(set) var evaluations: [Evaluation] = []

    /// Creates an empty tracer.
    package init() {}

    package mutating func record(node: Int32, value: Value, snapshots: SnapshotTable) {
        if case .bool(let b) = value { current[node] = b }
    }

    package mutating func take() -> [Int32: String] { [:] }

    package mutating func ruleEvaluated(_ rule: Int32, outcome: RuleOutcome) {
        evaluations.append(Evaluation(rule: rule, outcome: outcome, values: current))
        current.removeAll(keepingCapacity: true)
    }

    /// Forgets what was recorded, keeping the storage.
    package mutating func reset() {
        evaluations.removeAll(keepingCapacity: true)
        current.removeAll(keepingCapacity: true)
    }
}
