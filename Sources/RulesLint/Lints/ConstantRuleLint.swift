import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `constant-rule`: see ``ConstantRuleLint``.
    public static let constantRule = LintCode(declaring: "constant-rule")
}

/// `constant-rule`: a rule expression (not a literal) whose abstract value is always true, never
/// true or always an error, when no expression-level finding already explains it.
enum ConstantRuleLint: StaticLint {
    static let code = LintCode.constantRule
    static let category = LintCategory.correctness
    static let summary = "A rule expression whose value never depends on the data, auth or time."
    static let help =
        "It folds to true or false, or always fails with a runtime error (which counts as false). Write true or false if that is meant; otherwise the expression does not say what was intended."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.evaluations.compactMap { e in
            if e.explained { return nil }
            if case .boolean = e.checked.root.kind { return nil }
            let key = e.rule.kind.key
            let message: String
            if e.value.isAlwaysTrue {
                message = "This \(key) is always true, whatever the data, auth or time; write true if that is meant."
            } else if e.value.shape == nil {
                message = "This \(key) always fails with a runtime error, so it is never true."
            } else if e.value.isNeverTrue {
                message = "This \(key) is never true, whatever the data, auth or time; write false if that is meant."
            } else {
                return nil
            }
            return LintFinding(code: code, message: message, range: e.rule.valueRange, anchor: e.anchor)
        }
    }
}
