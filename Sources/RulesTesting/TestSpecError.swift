import RulesSyntax

/// Why a spec file (or the rules it names) cannot be used: a message at a place in a file.
package struct TestSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file the message is about (a spec file or a rules file).
    package var file: String
    /// Where in it (1-based).
    package var location: SourceLocation
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file:line:col: error: message`.
    package var description: String { "\(file):\(location.line):\(location.column): error: \(message)" }
}
