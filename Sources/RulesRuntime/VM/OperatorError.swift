/// The message of a failed operator or member access; the VM attaches the source range.
package struct OperatorError: Error, Sendable, Hashable {
    /// What went wrong.
    package var message: String
    /// Creates an error.
    package init(_ message: String) { self.message = message }
}
