extension DiagnosticCode {
    /// The rules file is not well-formed relaxed JSON (an unexpected character, an unterminated
    /// string or comment, a bad escape or number, an empty file).
    package static let jsonSyntax: DiagnosticCode = "json-syntax"
    /// A comma directly before `}` or `]`: a warning when the options allow it, otherwise an error.
    package static let jsonTrailingComma: DiagnosticCode = "json-trailing-comma"
    /// The same key appears twice in one object; the first member is kept.
    package static let jsonDuplicateKey: DiagnosticCode = "json-duplicate-key"
    /// The file is not valid UTF-8.
    package static let jsonInvalidUTF8: DiagnosticCode = "json-invalid-utf8"
    /// Arrays and objects are nested deeper than ``JSONReaderOptions/maxDepth``.
    package static let jsonTooDeep: DiagnosticCode = "json-too-deep"
}
