import RulesCompiler
import RulesLint
import RulesSyntax

/// The diagnostics of one checked file, with the file to render them against.
package struct FileDiagnostics: Sendable {
    /// The file (nil when it could not be read).
    package let file: SourceFile?
    /// The path as given.
    package let path: String
    /// Findings, in file order.
    package let diagnostics: [Diagnostic]
    /// Set when the file could not be read at all.
    package let readError: String?
    /// The lint findings among ``diagnostics``, for baselines.
    package var lints: [LintFinding] = []
    /// The access model's cells the solver left unknown within its budget.
    package var unknownCells = 0
    /// Set when lints were asked for but not run because the file has errors.
    package var lintsSkipped = false

    /// Creates a record.
    package init(file: SourceFile?, path: String, diagnostics: [Diagnostic], readError: String? = nil) {
        self.file = file
        self.path = path
        self.diagnostics = diagnostics
        self.readError = readError
    }

    /// The count of one severity.
    package func count(_ severity: Severity) -> Int { diagnostics.filter { $0.severity == severity }.count }
}
