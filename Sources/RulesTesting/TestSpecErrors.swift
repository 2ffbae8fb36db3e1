/// One or more input errors.
public struct TestSpecErrors: Error, Sendable, CustomStringConvertible {
    /// The errors, in the order found.
    public var errors: [TestSpecError]

    /// Wraps errors.
    public init(_ errors: [TestSpecError]) { self.errors = errors }

    /// One `file:line:col: error: message` line per error.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
