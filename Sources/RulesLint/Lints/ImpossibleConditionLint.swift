import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `impossible-condition`: see ``ImpossibleConditionLint``.
    public static let impossibleCondition = LintCode(declaring: "impossible-condition")
}

/// `impossible-condition`: a sub-expression that can never be true, as the abstract evaluator
/// proves it (``CascadeAnalysis/Evaluation/findings``).
enum ImpossibleConditionLint: StaticLint {
    static let code = LintCode.impossibleCondition
    static let category = LintCategory.correctness
    static let summary = "A condition that can never be true."
    static let help =
        "For example newData.isString() && newData.isNumber(), or a test that a $wildcard equals a key a literal sibling takes. The branch it guards is dead."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.evaluations.flatMap { e in
            e.findings.filter { $0.code == code }.map { LintFinding(code: code, message: $0.message, range: $0.range, anchor: e.anchor) }
        }
    }
}
