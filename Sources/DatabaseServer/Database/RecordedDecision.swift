import DatabaseRules
import RulesCoverage

/// What a rules decision was made on: the rules, the operation, the data before it, the caller's
/// `auth` and the time. Trees are immutable, so deciding again later with an explanation gives
/// the same verdict; the request log keeps one per request and explains it only when the page
/// asks (requests pay nothing for it).
package struct RecordedDecision: Sendable {
    /// The rules it was decided by (with their source text).
    package let rules: NamespaceRules
    /// The operation.
    package let operation: DatabaseOperation
    /// The data before it.
    package let root: DataNode?
    /// The caller's `auth`.
    package let auth: AuthValue
    /// The server time it saw, in milliseconds since 1970.
    package let now: Double

    /// Decides again, with the explanation: every rule evaluated, its result and the values of
    /// its sub-expressions.
    package func explain() -> Decision {
        rules.loaded.engine.decide(operation, on: root, auth: auth, now: now, explain: true)
    }
}
