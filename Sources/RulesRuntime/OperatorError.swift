/// The message of a failed operator or member access; the VM attaches the source range.
public struct OperatorError: Error, Sendable, Hashable {
    /// What went wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
}
