/// The engine's answer for one operation.
public struct Decision: Sendable {
    /// True when the operation may proceed.
    public let allowed: Bool
    /// The tree after an allowed write (the merged new tree the rules saw); the unchanged tree
    /// for reads and denied writes.
    public let newRoot: DataNode?
    /// Why it was denied, in one line (nil when allowed).
    public let reason: String?
    /// Every rule evaluated, when an explanation was asked for.
    public let explanation: Explanation?

    /// Creates a decision.
    public init(allowed: Bool, newRoot: DataNode?, reason: String?, explanation: Explanation?) {
        self.allowed = allowed
        self.newRoot = newRoot
        self.reason = reason
        self.explanation = explanation
    }
}
