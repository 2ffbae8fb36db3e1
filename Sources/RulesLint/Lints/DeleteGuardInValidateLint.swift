import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `delete-guard-in-validate`: see ``DeleteGuardInValidateLint``.
    public static let deleteGuardInValidate = LintCode(declaring: "delete-guard-in-validate")
}

/// `delete-guard-in-validate`: a `.validate` that requires `newData` to exist, which does not stop
/// a delete since `.validate` never runs on one, as the abstract evaluator finds it
/// (``CascadeAnalysis/Evaluation/findings``; the allow-null idiom is a silent finding).
enum DeleteGuardInValidateLint: StaticLint {
    static let code = LintCode.deleteGuardInValidate
    static let category = LintCategory.security
    static let securitySeverity: Double? = 5.3
    static let summary = "A .validate that tests whether newData exists."
    static let help =
        ".validate never runs when the new value is null, so a .validate that requires newData.exists() (or newData.val() != null) does not stop deletes. Guard deletes in .write with newData.exists(). The allow-null idiom (!newData.exists() || ..., ... || newData.val() == null) is harmless and not reported."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.evaluations.flatMap { e in
            e.findings.filter { $0.code == code }.map {
                LintFinding(
                    code: code, message: $0.message, range: $0.range, anchor: e.anchor,
                    witnessCandidates: WitnessPlanner.single(e.node, .delete, existing: true, note: "delete it; .validate does not run"))
            }
        }
    }
}
