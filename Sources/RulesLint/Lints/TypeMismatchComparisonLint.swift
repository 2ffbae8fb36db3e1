import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `type-mismatch-comparison`: see ``TypeMismatchComparisonLint``.
    public static let typeMismatchComparison = LintCode(declaring: "type-mismatch-comparison")
}

/// `type-mismatch-comparison`: an equality between values that never have the same type, as
/// the abstract evaluator proves it (``CascadeAnalysis/Evaluation/findings``).
enum TypeMismatchComparisonLint: StaticLint {
    static let code = LintCode.typeMismatchComparison
    static let category = LintCategory.correctness
    static let summary = "An equality between values that never have the same type."
    static let help =
        "== and != never convert types: $wildcards are strings, so $id == 5 is always false; auth.uid is a string or null, so auth.uid == 1 is always false. Compare with a value of the same type."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.evaluations.flatMap { e in
            e.findings.filter { $0.code == code }.map { LintFinding(code: code, message: $0.message, range: $0.range, anchor: e.anchor) }
        }
    }
}
