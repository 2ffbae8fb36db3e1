/// Why a value sent by a client cannot be read or stored.
public struct DataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A full sentence naming the problem and, when known, where it is.
    public var message: String
    /// The location of the offending node (absolute: the write location plus the path inside the
    /// value), or nil for errors without one (JSON syntax errors, which give a byte offset).
    public var path: DataPath?

    /// Creates an error.
    public init(message: String, path: DataPath? = nil) {
        self.message = message
        self.path = path
    }

    /// The message.
    public var description: String { message }
}
