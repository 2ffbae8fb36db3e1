import RulesSyntax

/// One finding to publish: the diagnostic and its notes (a lint's witness, one line each),
/// published as `relatedInformation` at the finding's own range.
package struct CheckedDiagnostic: Sendable, Hashable {
    package var diagnostic: Diagnostic
    package var notes: [String]

    package init(_ diagnostic: Diagnostic, notes: [String] = []) {
        self.diagnostic = diagnostic
        self.notes = notes
    }
}
