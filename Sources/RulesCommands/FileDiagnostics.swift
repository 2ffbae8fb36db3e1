import RulesCompiler
import RulesSyntax

/// The diagnostics of one checked file, with the file to render them against.
public struct FileDiagnostics: Sendable {
    /// The file (nil when it could not be read).
    public let file: SourceFile?
    /// The path as given.
    public let path: String
    /// Findings, in file order.
    public let diagnostics: [Diagnostic]
    /// Set when the file could not be read at all.
    public let readError: String?
    /// The lint findings among ``diagnostics``, for baselines.
    public var lints: [LintFinding] = []

    /// Creates a record.
    public init(file: SourceFile?, path: String, diagnostics: [Diagnostic], readError: String? = nil) {
        self.file = file
        self.path = path
        self.diagnostics = diagnostics
        self.readError = readError
    }

    /// The count of one severity.
    public func count(_ severity: Severity) -> Int { diagnostics.filter { $0.severity == severity }.count }
}
