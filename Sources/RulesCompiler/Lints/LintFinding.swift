import RulesSyntax

/// One lint finding: the diagnostic to report and a location-independent anchor for baselines.
public struct LintFinding: Sendable, Hashable {
    /// The lint.
    public let code: LintCode
    /// The warning, with its exact range.
    public var diagnostic: Diagnostic
    /// Where it is in the rule tree, independent of line numbers: e.g. `/users/$uid .write`.
    public let anchor: String

    /// Creates a finding.
    public init(code: LintCode, message: String, range: SourceRange, anchor: String) {
        self.code = code
        self.diagnostic = .warning(code.diagnosticCode, message, at: range)
        self.anchor = anchor
    }
}
