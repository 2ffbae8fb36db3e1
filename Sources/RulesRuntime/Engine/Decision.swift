/// The engine's answer for one operation.
public struct Decision: Sendable, CustomStringConvertible {
    /// True when the operation may proceed.
    public let allowed: Bool
    /// The tree after an allowed write (the merged new tree the rules saw); the unchanged tree
    /// for reads and denied writes.
    public let newRoot: DataNode?
    /// Why it was denied, in one line (nil when allowed); written out when read.
    public var reason: String? { denial?.text }
    /// ``reason``, to be written out later (or never): it holds the denial as the engine found it.
    package var deferredReason: DeferredReason { DeferredReason(denial: denial) }
    /// Why it was denied, as the engine found it.
    let denial: DenialReason?
    /// Every rule evaluated, when an explanation was asked for.
    public let explanation: Explanation?
    /// With `redactUnreadable`, the explanation unredacted, recorded in the same run: for the
    /// host's own log, never for the caller (nil otherwise).
    public internal(set) var unredactedExplanation: Explanation?
    /// True when the operation was refused before any rule ran, because the request itself is
    /// invalid (a bad path or key, overlapping update paths, data too deep or too large): a
    /// server answers it as a bad request, not as a permission denial. ``reason`` says why.
    public let isRejected: Bool
    /// True when the operation was denied because the decision ran out of its
    /// ``EvaluationBudget``; ``reason`` names the rule and the data path where it did.
    public private(set) var isBudgetExhausted = false

    /// Creates a decision.
    public init(allowed: Bool, newRoot: DataNode?, reason: String?, explanation: Explanation?, isRejected: Bool = false) {
        self.allowed = allowed
        self.newRoot = newRoot
        self.denial = reason.map(DenialReason.text)
        self.explanation = explanation
        self.isRejected = isRejected
    }

    init(allowed: Bool, newRoot: DataNode?, denial: DenialReason?, explanation: Explanation?, exhausted: Bool = false) {
        self.allowed = allowed
        self.newRoot = newRoot
        self.denial = denial
        self.explanation = explanation
        self.isRejected = false
        self.isBudgetExhausted = exhausted
    }

    /// `allowed`, or `denied: ` and the reason (`rejected: ` for an invalid request): what to
    /// print, without the trees.
    public var description: String {
        if allowed { return "allowed" }
        return (isRejected ? "rejected: " : "denied: ") + (reason ?? "no reason recorded")
    }
}
