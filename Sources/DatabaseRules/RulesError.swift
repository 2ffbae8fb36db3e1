/// Why a rules file could not be compiled: every diagnostic, with the file to render them against.
public struct RulesError: Error, Sendable, CustomStringConvertible {
    /// The file, when it could be read.
    public let file: SourceFile?
    /// Every error and warning.
    public let diagnostics: [Diagnostic]
    /// A message when the file could not be read at all.
    public let message: String?

    /// Creates an error.
    public init(file: SourceFile?, diagnostics: [Diagnostic], message: String?) {
        self.file = file
        self.diagnostics = diagnostics
        self.message = message
    }

    /// `file:line:col: error: message` lines, one per diagnostic.
    public var description: String {
        if let message { return message }
        guard let file else { return "invalid rules" }
        return diagnostics.map { d in
            "\(file.path):\(file.location(of: d.range)): \(d.severity.rawValue): \(d.message) [\(d.code)]"
        }.joined(separator: "\n")
    }
}
