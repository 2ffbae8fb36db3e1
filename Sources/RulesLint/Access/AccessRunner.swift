import DatabaseRules
import RulesCompiler
import RulesRuntime

/// Runs witnesses through the engine for the access model, and tells which rule allowed an
/// operation (from the explanation of its decision).
package struct AccessRunner {
    package let rules: Ruleset
    private let nodes: [String: RuleNode]
    /// How many operations the engine decided.
    package private(set) var decisions = 0
    /// Starting databases by their JSON: a location's cells share their world.
    private var databases: [String: Database] = [:]

    package init(rules: Ruleset, tree: RuleNode) {
        self.rules = rules
        var nodes: [String: RuleNode] = [:]
        tree.forEachNode { nodes[$0.pathDescription] = $0 }
        self.nodes = nodes
    }

    /// Runs `witness`: each step's verdict is the engine's; running stops at the first step
    /// whose verdict is not the one it needs. Returns the witness as run and, when every step got
    /// its verdict and the last was allowed, the rule that allowed the last step.
    package mutating func run(_ witness: LintWitness) -> (witness: LintWitness, decidedBy: RuleReference?) {
        var out = witness
        guard var database = database(witness.data) else { return (out, nil) }
        let auth = WitnessSearch.auth(witness.identity)
        var decidedBy: RuleReference?
        for i in out.steps.indices {
            guard let operation = WitnessSearch.operation(out.steps[i]) else { return (out, nil) }
            let last = i == out.steps.count - 1
            let decision = database.apply(operation, rules: rules, auth: auth, now: WitnessSearch.now, explain: last && out.steps[i].expectAllowed)
            decisions += 1
            out.steps[i].allowed = decision.allowed
            if decision.allowed != out.steps[i].expectAllowed { return (out, nil) }
            if last, decision.allowed { decidedBy = granting(decision) }
        }
        return (out, decidedBy)
    }

    /// The database holding `data` (empty for nil), read once per distinct value.
    private mutating func database(_ data: WitnessValue?) -> Database? {
        guard let data else { return Database() }
        let json = data.json
        if let d = databases[json] { return d }
        guard let d = try? Database(json: json) else { return nil }
        if databases.count < 4096 { databases[json] = d }
        return d
    }

    /// The `.read`/`.write` that granted an allowed decision.
    package func granting(_ decision: Decision) -> RuleReference? {
        guard let e = decision.explanation?.evaluations.last(where: { $0.kind != .validate && $0.outcome.isTrue }),
            let node = node(e.rulePath, e.kind)
        else { return nil }
        return RuleReference(node: node, kind: e.kind)
    }

    /// The rule that denied a decision: the first failing `.validate`, else nil.
    package func denyingValidate(_ decision: Decision) -> RuleReference? {
        guard let e = decision.explanation?.evaluations.first(where: { $0.kind == .validate && !$0.outcome.isTrue }),
            let node = node(e.rulePath, e.kind)
        else { return nil }
        return RuleReference(node: node, kind: .validate)
    }

    /// The node of a rule path (`/users/$uid/.write` → `/users/$uid`).
    private func node(_ rulePath: String, _ kind: RuleKind) -> RuleNode? {
        let path = String(rulePath.dropLast(kind.key.count + 1))
        return nodes[path.isEmpty ? "/" : path]
    }

    /// Decides one operation on `data` with an explanation.
    package mutating func decide(_ step: LintWitness.Step, data: WitnessValue?, identity: LintWitness.Identity) -> Decision? {
        guard let database = database(data) else { return nil }
        guard let operation = WitnessSearch.operation(step) else { return nil }
        decisions += 1
        return rules.decide(operation, on: database, auth: WitnessSearch.auth(identity), now: WitnessSearch.now, explain: true)
    }
}
