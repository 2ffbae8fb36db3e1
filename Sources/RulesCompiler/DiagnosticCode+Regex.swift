import RulesSyntax

extension DiagnosticCode {
    /// A regular expression literal uses a flag other than a single `i`.
    package static let regexFlags: DiagnosticCode = "regex-flags"
    /// A regular expression uses a construct outside the subset the server accepts: `(?`,
    /// back-references, `\b`, `\u`, `\x`, `\p`, `\k`, `\c`, or an empty character class.
    package static let regexUnsupported: DiagnosticCode = "regex-unsupported"
    /// A `^` or `$` anchor appears somewhere other than the very start or very end of the pattern.
    package static let regexAnchor: DiagnosticCode = "regex-anchor"
    /// A regular expression has an empty alternative, such as `(foo|)`, `|a` or `()`.
    package static let regexEmptyAlternative: DiagnosticCode = "regex-empty-alternative"
    /// A regular expression is malformed: unbalanced parentheses or brackets, nothing to repeat,
    /// bad `{n,m}` bounds, a range out of order, a trailing backslash, or an empty pattern.
    package static let regexSyntax: DiagnosticCode = "regex-syntax"
    /// An accepted regular expression could still not be compiled by the matching engine
    /// (for example, it is too large). Emitted by callers of ``CompiledRegex``.
    package static let regexCompile: DiagnosticCode = "regex-compile"
}
