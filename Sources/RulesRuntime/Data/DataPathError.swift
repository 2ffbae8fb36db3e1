/// Why a path or key is invalid.
public struct DataPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A full sentence naming the key or path and the problem.
    public var message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
