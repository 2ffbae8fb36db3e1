import RulesSyntax

/// A problem found in a regular expression literal `/pattern/flags` by ``RegexSubset/validate(pattern:flags:)``.
package struct RegexIssue: Sendable, Hashable, CustomStringConvertible {
    /// The message, in the server's lowercase voice, e.g. `nothing to repeat`.
    package var message: String
    /// UTF-8 byte offsets within the pattern text (between the slashes), or within the flags
    /// string when ``isInFlags`` is `true`.
    package var range: SourceRange
    /// Whether ``range`` points into the flags rather than the pattern.
    package var isInFlags: Bool
    /// The diagnostic code, e.g. ``DiagnosticCode/regexFlags``.
    package var code: DiagnosticCode

    /// Creates an issue.
    package init(message: String, range: SourceRange, isInFlags: Bool = false, code: DiagnosticCode) {
        self.message = message
        self.range = range
        self.isInFlags = isInFlags
        self.code = code
    }

    package var description: String {
        "\(isInFlags ? "flags" : "pattern") \(range): \(message) [\(code)]"
    }
}
