import RulesRuntime

/// The cheap tracer of coverage: for each rule the engine evaluates, its index, its outcome and
/// the boolean value of every expression node the VM completed, with nothing rendered for people.
/// `rules test` decides every step with it and asks for an explanation only when a step fails;
/// the server's coverage decides every request again with it.
///
/// The values of all the evaluations of a decision go into one array, each evaluation naming
/// its range, so that recording allocates nothing once the arrays have grown (``reset()``
/// keeps their capacity).
package struct RuleCoverageTracer: Tracer {
    /// One rule evaluation.
    package struct Evaluation: Sendable {
        /// The rule's index in the ruleset.
        package var rule: Int32
        /// What it came to.
        package var outcome: RuleOutcome
        /// Its node values: a range of ``RuleCoverageTracer/values``.
        package var values: Range<Int>
    }

    /// A boolean value an expression node produced.
    package struct NodeValue: Sendable {
        /// The node's id.
        package var node: Int32
        /// Its value.
        package var value: Bool
    }

    /// The boolean values recorded since the last ``reset()``, evaluation after evaluation;
    /// nodes with other values are left out.
    package private(set) var values: [NodeValue] = []
    /// The evaluations since the last ``reset()``, in order.
    package private(set) var evaluations: [Evaluation] = []
    /// Where the values of the evaluation under way start.
    private var start = 0

    /// Creates an empty tracer.
    package init() {}

    package mutating func record(node: Int32, value: Value, snapshots: SnapshotTable) {
        if case .bool(let b) = value { values.append(NodeValue(node: node, value: b)) }
    }

    package mutating func take() -> [Int32: String] { [:] }

    package mutating func ruleEvaluated(_ rule: Int32, outcome: RuleOutcome) {
        evaluations.append(Evaluation(rule: rule, outcome: outcome, values: start..<values.count))
        start = values.count
    }

    /// The value node `node` produced in `evaluation` (the last one, if it produced several),
    /// or nil when it produced no boolean.
    package func value(of node: Int32, in evaluation: Evaluation) -> Bool? {
        var i = evaluation.values.upperBound
        while i > evaluation.values.lowerBound {
            i -= 1
            if values[i].node == node { return values[i].value }
        }
        return nil
    }

    /// Forgets what was recorded, keeping the storage.
    package mutating func reset() {
        evaluations.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        start = 0
    }
}
