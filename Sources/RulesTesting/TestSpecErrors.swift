/// One or more input errors.
package struct TestSpecErrors: Error, Sendable, CustomStringConvertible {
    /// The errors, in the order found.
    package var errors: [TestSpecError]

    /// Wraps errors.
    package init(_ errors: [TestSpecError]) { self.errors = errors }

    /// One `file:line:col: error: message` line per error.
    package var description: String { errors.map(\.description).joined(separator: "\n") }
}
