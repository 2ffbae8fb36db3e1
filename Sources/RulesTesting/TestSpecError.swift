import RulesSyntax

/// Why a spec file (or the rules it names) cannot be used: a message at a place in a file.
public struct TestSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file the message is about (a spec file or a rules file).
    public var file: String
    /// Where in it (1-based).
    public var location: SourceLocation
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file:line:col: error: message`.
    public var description: String { "\(file):\(location.line):\(location.column): error: \(message)" }
}
