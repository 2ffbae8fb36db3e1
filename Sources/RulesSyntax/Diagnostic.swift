/// One finding about an input: an error, a warning or a note, at a byte range of a file.
public struct Diagnostic: Hashable, Sendable {
    /// How serious it is.
    public var severity: Severity
    /// The stable code of the check.
    public var code: DiagnosticCode
    /// The message, in the server's words where the server has words for it.
    public var message: String
    /// Where, in bytes of the file.
    public var range: SourceRange

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ code: DiagnosticCode, _ message: String, at range: SourceRange) {
        self.severity = severity
        self.code = code
        self.message = message
        self.range = range
    }

    /// An error.
    public static func error(_ code: DiagnosticCode, _ message: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.error, code, message, at: range)
    }

    /// A warning.
    public static func warning(_ code: DiagnosticCode, _ message: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(.warning, code, message, at: range)
    }
}

extension Sequence<Diagnostic> {
    /// True when any element is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
