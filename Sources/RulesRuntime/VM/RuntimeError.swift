import RulesSyntax

/// A runtime error inside a rule (spec §7.1): the rule counts as not true.
public struct RuntimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, e.g. "Cannot call contains() on null.".
    public var message: String
    /// The file range of the sub-expression that failed.
    public var range: SourceRange

    /// Creates an error.
    public init(_ message: String, range: SourceRange) {
        self.message = message
        self.range = range
    }

    public var description: String { message }
}
