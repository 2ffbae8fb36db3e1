import RulesCompiler
import RulesSyntax

/// Why an operation was allowed or denied: for each path the operation touched, each rule
/// evaluated, where it is in the file, its result, the bound `$vars` and the values of its
/// sub-expressions.
public struct Explanation: Sendable {
    /// What was decided, e.g. `update /`.
    public var operation: String
    /// True when allowed.
    public var allowed: Bool
    /// A reason given before any rule ran (an invalid path, overlapping update paths), if any.
    public var rejection: String?
    /// The evaluations, in order.
    public var evaluations: [RuleEvaluation]
    /// The index in ``evaluations`` of the evaluation that decided, when the engine knows it.
    public var decisiveIndex: Int?

    /// Creates an explanation.
    public init(operation: String, allowed: Bool, rejection: String?, evaluations: [RuleEvaluation]) {
        self.operation = operation
        self.allowed = allowed
        self.rejection = rejection
        self.evaluations = evaluations
    }

    /// The evaluation that decided a denial: the first failing `.validate`, or else the last
    /// `.write`/`.read` that did not grant.
    public var decisive: RuleEvaluation? {
        if let i = decisiveIndex, evaluations.indices.contains(i) { return evaluations[i] }
        if allowed { return evaluations.last { $0.outcome.isTrue && $0.kind != .validate } }
        if let v = evaluations.first(where: { $0.kind == .validate && !$0.outcome.isTrue }) { return v }
        return evaluations.last { !$0.outcome.isTrue }
    }

    /// A readable multi-line rendering.
    public var text: String {
        var out = "\(operation): \(allowed ? "allowed" : "denied")\n"
        if let rejection { out += "  rejected before any rule ran: \(rejection)\n" }
        if evaluations.isEmpty && rejection == nil {
            out += "  no rule applies on this path\n"
        }
        let deciding = decisive
        for e in evaluations {
            let marker = (deciding?.id == e.id) ? "→ " : "  "
            out += "  \(marker)\(e.summary)\n"
            if !e.bindings.isEmpty {
                out += "      with " + e.bindings.map { "\($0.name) = \(Value.quote($0.value))" }.joined(separator: ", ") + "\n"
            }
            if !e.source.isEmpty { out += "      " + e.source + "\n" }
            for v in e.values { out += "        \(v.text) = \(v.value)\n" }
        }
        return out
    }
}

/// One rule evaluation.
public struct RuleEvaluation: Sendable, Identifiable {
    /// The order of evaluation within the operation.
    public var id: Int
    /// `.read`, `.write` or `.validate`.
    public var kind: RuleKind
    /// What the evaluation was for: the data path it ran at.
    public var dataPath: String
    /// The rule path, e.g. `/posts/$postId/.write`.
    public var rulePath: String
    /// The rules file.
    public var file: String
    /// Where the rule's value starts.
    public var location: SourceLocation
    /// True, false or the runtime error.
    public var outcome: RuleOutcome
    /// Where a runtime error happened, if one did.
    public var errorLocation: SourceLocation?
    /// The `$vars` bound, outermost first.
    public var bindings: [(name: String, value: String)]
    /// The rule's source text (one line, trimmed).
    public var source: String
    /// Sub-expression values, in source order.
    public var values: [(text: String, value: String)]
    /// For a false rule, the sub-expression that made it false (down `&&` to the first false
    /// operand, down `||` to the first alternative, into the branch of `?:` taken); nil when
    /// the whole rule is that expression, or the rule was not false.
    public var falsePart: String? = nil

    /// `file:line:col`.
    public var position: String { "\(file):\(location.line):\(location.column)" }

    /// One line: rule path, position, data path and result.
    public var summary: String {
        var s = "\(rulePath) at \(position) on \(dataPath): \(outcome)"
        if let at = errorLocation { s += " (at \(file):\(at.line):\(at.column))" }
        return s
    }
}
