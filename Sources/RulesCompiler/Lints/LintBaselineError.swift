/// A baseline file that cannot be read.
public struct LintBaselineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    public var description: String { message }
}
