import DatabaseRules
import RulesCoverage

/// What a rules decision was made on: the rules, the operation, the data before it, the caller's
/// `auth` and the time. Trees are immutable, so deciding again later with an explanation gives
/// the same verdict; the request log keeps one per request and explains it only when the page
/// asks (requests pay nothing for it).
public struct RecordedDecision: Sendable {
    /// The rules it was decided by (with their source text).
    public let rules: NamespaceRules
    /// The operation.
    public let operation: DatabaseOperation
    /// The data before it.
    public let root: DataNode?
    /// The caller's `auth`.
    public let auth: AuthValue
    /// The server time it saw, in milliseconds since 1970.
    public let now: Double

    /// Decides again, with the explanation: every rule evaluated, its result and the values of
    /// its sub-expressions.
    public func explain() -> Decision {
        rules.loaded.engine.decide(operation, on: root, auth: auth, now: now, explain: true)
    }
}
