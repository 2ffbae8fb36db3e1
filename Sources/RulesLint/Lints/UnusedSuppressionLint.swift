import RulesSyntax

extension LintCode {
    /// `unused-suppression`: see ``UnusedSuppressionLint``.
    public static let unusedSuppression = LintCode(declaring: "unused-suppression")
}

/// `unused-suppression`: a code in a suppression comment that hides no finding of a lint that
/// ran. Decided by ``Linter`` once suppressions are applied.
enum UnusedSuppressionLint: Lint {
    static let code = LintCode.unusedSuppression
    static let category = LintCategory.maintainability
    static let summary = "A lint suppression comment that hides nothing."
    static let help =
        "No finding of the named lint starts where the rules-lint-disable comment reaches, so it can be removed (or the code it was meant for has changed). Only lints that run are considered."

    /// The finding for `suppressed`, named at `range` in `suppression`, which hid nothing.
    static func finding(_ suppression: LintSuppression, naming suppressed: LintCode, at range: SourceRange) -> LintFinding {
        let scope = suppression.scope.rawValue
        return LintFinding(
            code: code,
            message: "This \(scope) comment names \(suppressed.rawValue), but no \(suppressed.rawValue) finding starts where it reaches; remove the code (or the comment).",
            range: range, anchor: "comment \(scope) \(suppressed.rawValue)")
    }
}
