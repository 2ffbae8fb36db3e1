import RulesCompiler
import RulesSyntax

/// Another place a finding concerns: a rule it trusts, a rule it makes dead, a location it
/// exposes. Reported as `related` in JSON, `relatedLocations` in SARIF, and named in text.
public struct LintRelated: Sendable, Hashable {
    /// Where, in bytes of the file.
    public var range: SourceRange
    /// What it is, e.g. `trusts /users/{auth.uid}/role = "admin"`.
    public var message: String

    package init(range: SourceRange, message: String) {
        self.range = range
        self.message = message
    }
}
