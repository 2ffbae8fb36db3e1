import RulesSyntax

/// Findings as LSP `Diagnostic` objects: the exact range in UTF-16 positions, the severity, the
/// code, and a note per witness line in `relatedInformation`.
package enum DiagnosticConverter {
    /// The `source` shown beside each message.
    package static let source = "rules"

    /// The `textDocument/publishDiagnostics` parameters for one document.
    package static func publish(uri: String, version: Int?, analysis: DocumentAnalysis) -> JSONText {
        var params: [(String, JSONText)] = [("uri", .string(uri))]
        if let version { params.append(("version", .int(version))) }
        params.append(("diagnostics", .array((analysis.diagnostics ?? []).map { convert($0, uri: uri, positions: analysis.positions) })))
        return .object(params)
    }

    /// One diagnostic.
    package static func convert(_ d: CheckedDiagnostic, uri: String, positions: PositionConverter) -> JSONText {
        let range = positions.range(d.diagnostic.range)
        var members: [(String, JSONText)] = [
            ("range", range.json),
            ("severity", .int(severity(d.diagnostic.severity))),
            ("code", .string(d.diagnostic.code.rawValue)),
            ("source", .string(source)),
            ("message", .string(d.diagnostic.message)),
        ]
        if !d.notes.isEmpty {
            let location: JSONText = .object([("uri", .string(uri)), ("range", range.json)])
            members.append(("relatedInformation", .array(d.notes.map { .object([("location", location), ("message", .string($0))]) })))
        }
        return .object(members)
    }

    /// LSP's `DiagnosticSeverity`: 1 error, 2 warning, 3 information.
    package static func severity(_ s: Severity) -> Int {
        switch s {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }
}
