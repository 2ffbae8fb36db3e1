import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `shadowed-rule`: see ``ShadowedRuleLint``.
    public static let shadowedRule = LintCode(declaring: "shadowed-rule")
}

/// `shadowed-rule`: a `.read` or `.write` below an ancestor whose rule of the same kind is always
/// true. One finding per grant, at the first rule it shadows, listing the others
/// (``CascadeAnalysis/shadowed``).
enum ShadowedRuleLint: StaticLint {
    static let code = LintCode.shadowedRule
    static let category = LintCategory.security
    static let securitySeverity: Double? = 6.5
    static let summary = "A .read or .write below an ancestor that already grants unconditionally."
    static let help =
        "Access is allowed if any rule on the path is true, so once an ancestor's rule is always true, this rule can never change a verdict. Remove it, or make the ancestor conditional."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.shadowed.map { s in
            let verb = s.kind == .read ? "reads" : "writes"
            var message = "This \(s.kind.key) can never change a verdict: the \(s.kind.key) at \(s.grantPath) already grants \(verb) unconditionally, and a grant cascades to everything below it."
            if !s.others.isEmpty { message += " The same grant shadows the rules at " + s.others.joined(separator: ", ") + "." }
            let op: LintWitness.Step.Operation = s.kind == .read ? .read : .set
            return LintFinding(
                code: code, message: message, range: s.range, anchor: s.anchor,
                witnessCandidates: WitnessPlanner.single(s.node, op, identities: [.anonymous], note: "granted by the \(s.kind.key) at \(s.grantPath)") {
                    op == .read ? nil : WitnessPlanner.sample(s.node, uid: $0)
                })
        }
    }
}
