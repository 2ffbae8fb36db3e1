import RulesSyntax

/// A quick fix for one finding.
package struct CodeAction: Sendable, Equatable {
    package var title: String
    package var diagnostic: CheckedDiagnostic
    package var edits: [TextEdit]
    package var preferred: Bool

    package func json(uri: String, positions: PositionConverter) -> JSONText {
        .object([
            ("title", .string(title)), ("kind", .string("quickfix")),
            ("diagnostics", .array([DiagnosticConverter.convert(diagnostic, uri: uri, positions: positions)])),
            ("isPreferred", .bool(preferred)),
            ("edit", .object([("changes", .object([(uri, .array(edits.map { $0.json(positions) }))]))])),
        ])
    }
}
