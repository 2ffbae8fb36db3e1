import RulesSyntax

extension LintCode {
    /// `unknown-lint-code`: see ``UnknownLintCodeLint``.
    public static let unknownLintCode = LintCode(declaring: "unknown-lint-code")
}

/// `unknown-lint-code`: a name in a suppression comment that is not a lint code. Found while
/// ``LintSuppression/scan(_:tree:)`` reads the comments.
enum UnknownLintCodeLint: Lint {
    static let code = LintCode.unknownLintCode
    static let category = LintCategory.maintainability
    static let summary = "A lint suppression comment names an unknown code."
    static let help =
        "rules-lint-disable comments take lint codes from docs/lints.md, separated by commas. A misspelt code suppresses nothing."

    /// The finding for `name`, at `range`, in a comment of `scope`.
    static func finding(name: Substring, range: SourceRange, scope: LintSuppression.Scope) -> LintFinding {
        LintFinding(
            code: code,
            message: "'\(name)' is not a lint code, so this \(scope.rawValue) comment suppresses nothing under that name.",
            range: range, anchor: "comment \(scope.rawValue) \(name)")
    }
}
