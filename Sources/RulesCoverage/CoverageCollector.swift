import RulesCompiler
import RulesRuntime
import RulesSyntax

/// Coverage across a run: for each rules file, which rules were evaluated and which outcomes
/// (true, false, error) each rule, each `&&`/`||` operand and each `?:` condition produced.
///
/// How outcomes are known:
/// * a rule's outcome comes from the engine's explanation (true, false, or a runtime error);
/// * an operand's or condition's value comes from the tracer, which sees the value of each node
///   the VM completes; a nested `&&`/`||`/`?:` has no instruction of its own, so its value is
///   worked out from its parts. An operand that short-circuiting skipped has no outcome;
/// * an operand "errored" when the rule ended in a runtime error located inside it (errors are
///   not values, so the tracer never sees them).
package struct CoverageCollector: Sendable {
    /// Coverage by rules file, in the order files were first seen.
    package private(set) var files: [FileCoverage] = []
    private var indexByPath: [String: Int] = [:]

    /// Creates an empty collector.
    package init() {}

    /// Adds a rules file (with nothing evaluated yet) unless already present.
    package mutating func register(_ rules: LoadedRules) {
        guard indexByPath[rules.path] == nil else { return }
        indexByPath[rules.path] = files.count
        files.append(FileCoverage(rules.ruleset))
    }

    /// Records one decision: each evaluation of the explanation with the node values the
    /// tracer saw for it.
    package mutating func record(_ rules: LoadedRules, explanation: Explanation, values: [[Int32: Bool]]) {
        register(rules)
        guard let f = indexByPath[rules.path] else { return }
        for (i, evaluation) in explanation.evaluations.enumerated() {
            guard let r = rules.indexByRulePath[evaluation.rulePath], files[f].rules.indices.contains(r) else { continue }
            let observed = i < values.count ? values[i] : [:]
            files[f].rules[r].record(evaluation.outcome) { observed[$0] }
        }
    }

    /// Records one decision from the evaluations a ``RuleCoverageTracer`` saw.
    package mutating func record(_ rules: LoadedRules, tracer: RuleCoverageTracer) {
        register(rules)
        guard let f = indexByPath[rules.path] else { return }
        for evaluation in tracer.evaluations where files[f].rules.indices.contains(Int(evaluation.rule)) {
            files[f].rules[Int(evaluation.rule)].record(evaluation.outcome) { tracer.value(of: $0, in: evaluation) }
        }
    }

    /// Rules evaluated at least once, over all files.
    package var evaluatedRules: Int { files.reduce(0) { $0 + $1.evaluatedRules } }
    /// Rules, over all files.
    package var totalRules: Int { files.reduce(0) { $0 + $1.rules.count } }
    /// Outcome branches seen, over all files.
    package var seenBranches: Int { files.reduce(0) { $0 + $1.seenBranches } }
    /// Outcome branches, over all files.
    package var totalBranches: Int { files.reduce(0) { $0 + $1.totalBranches } }
    /// Percent of rules evaluated (100 when there are none).
    package var percent: Double { Self.percent(evaluatedRules, totalRules) }
    /// Percent of outcome branches seen (100 when there are none).
    package var branchPercent: Double { Self.percent(seenBranches, totalBranches) }

    static func percent(_ part: Int, _ whole: Int) -> Double {
        whole == 0 ? 100 : Double(part) * 100 / Double(whole)
    }
}

/// Coverage of one rules file.
package struct FileCoverage: Sendable {
    /// The rules file's path.
    package let path: String
    /// Every rule, in ruleset order.
    package var rules: [RuleCoverage]

    init(_ ruleset: CompiledRuleset) {
        path = ruleset.file.path
        rules = ruleset.rules.map { RuleCoverage($0, file: ruleset.file) }
    }

    /// Rules evaluated at least once.
    package var evaluatedRules: Int { rules.count { $0.evaluations > 0 } }
    /// Outcome branches seen.
    package var seenBranches: Int { rules.reduce(0) { $0 + $1.seenBranches } }
    /// Outcome branches.
    package var totalBranches: Int { rules.reduce(0) { $0 + $1.totalBranches } }
    /// Percent of rules evaluated.
    package var percent: Double { CoverageCollector.percent(evaluatedRules, rules.count) }
    /// Percent of outcome branches seen.
    package var branchPercent: Double { CoverageCollector.percent(seenBranches, totalBranches) }
}

/// Coverage of one rule.
package struct RuleCoverage: Sendable {
    /// The rule path, e.g. `/posts/$postId/.write`.
    package let rulePath: String
    /// Where the rule's value starts.
    package let location: SourceLocation
    /// The value of a rule written as JSON `true`/`false` (or folded to a constant).
    package let constant: Bool?
    /// Times evaluated.
    package var evaluations = 0
    /// Times it was true, false, or ended in a runtime error.
    package var trueCount = 0, falseCount = 0, errorCount = 0
    /// The `&&`/`||` operands and `?:` conditions, in source order.
    package var branches: [BranchCoverage]

    init(_ rule: CompiledRule, file: SourceFile) {
        rulePath = rule.rulePath
        location = file.location(of: rule.range)
        constant = rule.constant
        var found: [BranchCoverage] = []
        if let expression = rule.expression {
            Self.collect(expression.root, expression, file, into: &found)
        }
        branches = found.sorted { $0.range.start < $1.range.start }
    }

    private static func collect(_ e: Expression, _ checked: CheckedExpression, _ file: SourceFile, into out: inout [BranchCoverage]) {
        func add(_ node: Expression, _ role: BranchCoverage.Role) {
            let range = checked.fileRange(of: node)
            let text = file.text(of: range).split(whereSeparator: \.isNewline)
                .map { $0.trimmingPrefix(while: { $0 == " " || $0 == "\t" }) }.joined(separator: " ")
            out.append(BranchCoverage(role: role, text: text, location: file.location(of: range), range: range, node: node))
        }
        switch e.kind {
        case .member(let o, _, _): collect(o, checked, file, into: &out)
        case .index(let o, let i): collect(o, checked, file, into: &out); collect(i, checked, file, into: &out)
        case .call(let c, let args):
            collect(c, checked, file, into: &out)
            for a in args { collect(a, checked, file, into: &out) }
        case .unary(_, let x): collect(x, checked, file, into: &out)
        case .binary(_, let l, let r, _): collect(l, checked, file, into: &out); collect(r, checked, file, into: &out)
        case .logical(_, let xs):
            for x in xs {
                add(x, .operand)
                collect(x, checked, file, into: &out)
            }
        case .conditional(let c, let a, let b):
            add(c, .condition)
            collect(c, checked, file, into: &out)
            collect(a, checked, file, into: &out)
            collect(b, checked, file, into: &out)
        case .array(let xs): for x in xs { collect(x, checked, file, into: &out) }
        default: break
        }
    }

    /// Counts one evaluation: its outcome, and each branch's value as `value` gives it (the
    /// boolean a node id produced, or nil).
    mutating func record(_ outcome: RuleOutcome, value: (Int32) -> Bool?) {
        evaluations += 1
        var errorRange: SourceRange?
        switch outcome {
        case .value(true): trueCount += 1
        case .value(false): falseCount += 1
        case .error(let e): errorCount += 1; errorRange = e.range
        }
        for i in branches.indices {
            if let v = Self.observed(branches[i].node, value) {
                if v { branches[i].trueCount += 1 } else { branches[i].falseCount += 1 }
            } else if let r = errorRange, branches[i].range.start <= r.start, r.start < max(branches[i].range.end, branches[i].range.start + 1) {
                branches[i].errorCount += 1
            }
        }
    }

    /// The value a node produced in one evaluation, if it completed.
    static func observed(_ e: Expression, _ values: (Int32) -> Bool?) -> Bool? {
        switch e.kind {
        case .logical(let op, let operands):
            // `&&` is false at the first false operand and true when all are true; `||` mirrors it.
            let decisive = op == .or
            for o in operands {
                guard let v = observed(o, values) else { return nil }
                if v == decisive { return decisive }
            }
            return !decisive
        case .conditional(let c, let a, let b):
            guard let v = observed(c, values) else { return nil }
            return observed(v ? a : b, values)
        default:
            return values(Int32(e.id))
        }
    }

    /// Outcome slots: one for a constant rule, else true and false for the rule and for each branch.
    package var totalBranches: Int { constant != nil ? 1 : 2 + 2 * branches.count }
    /// Outcome slots seen.
    package var seenBranches: Int {
        if constant != nil { return evaluations > 0 ? 1 : 0 }
        var n = (trueCount > 0 ? 1 : 0) + (falseCount > 0 ? 1 : 0)
        for b in branches { n += (b.trueCount > 0 ? 1 : 0) + (b.falseCount > 0 ? 1 : 0) }
        return n
    }
}

/// An `&&`/`||` operand or a `?:` condition, and the outcomes it produced.
package struct BranchCoverage: Sendable {
    /// What the sub-expression is to its parent.
    package enum Role: String, Sendable {
        /// An operand of `&&` or `||`.
        case operand
        /// The condition of `?:`.
        case condition
    }

    /// Operand or condition.
    package let role: Role
    /// Its source text, on one line.
    package let text: String
    /// Where it starts.
    package let location: SourceLocation
    /// Its bytes in the rules file.
    package let range: SourceRange
    let node: Expression
    /// Times it was true, false, or held the runtime error that ended the rule.
    package var trueCount = 0, falseCount = 0, errorCount = 0

    init(role: Role, text: String, location: SourceLocation, range: SourceRange, node: Expression) {
        self.role = role
        self.text = text
        self.location = location
        self.range = range
        self.node = node
    }
}
