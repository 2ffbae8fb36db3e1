import RulesSyntax

/// The access model's findings for one version of a document, computed off the connection's
/// thread (``ServerConnection``) while the editor keeps the compiler's diagnostics and the static
/// lints it already has; published only if the document is still at that version.
package struct ModelJob: Sendable {
    package let uri: String
    package let version: Int
    package let file: SourceFile
    package let findings: @Sendable (SourceFile) -> [CheckedDiagnostic]

    /// Runs the model (the slow part: the search, the solver within its budget, the witnesses).
    package func run() -> [CheckedDiagnostic] { findings(file) }
}
