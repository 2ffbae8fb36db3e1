/// What ``Database/compareAndSet(path:expectedHash:value:rules:auth:now:explain:)`` did. Read
/// ``committed`` (or ``status``) to know whether the value was written: ``decision`` is only the
/// rules' answer, allowed also for a stale attempt that wrote nothing.
public struct CompareAndSetResult: Sendable, CustomStringConvertible {
    /// The three ways a compare-and-set ends.
    public enum Status: Sendable, Hashable {
        /// The hash matched and the rules allowed the write: it is committed.
        case committed
        /// The rules denied the write; nothing was compared or changed.
        case denied
        /// The rules allowed the write, but the data had changed: nothing was written.
        case stale
    }

    /// How it ended.
    public let status: Status
    /// The rules' decision on the write (allowed also when the attempt was stale: see
    /// ``committed``).
    public let decision: Decision
    /// After a commit, the new hash at the path; when stale, the current one (`""` when denied).
    public let hash: String

    /// Whether the value was written (the hash matched and the rules allowed it).
    public var committed: Bool { status == .committed }

    /// `committed (hash …)`, `stale: the data changed (hash now …); nothing written`, or
    /// `denied: ` and the reason.
    public var description: String {
        switch status {
        case .committed: "committed (hash \(hash))"
        case .stale: "stale: the data changed (hash now \(hash.isEmpty ? "empty: no data" : hash)); nothing written"
        case .denied: "denied: " + (decision.reason ?? "no reason recorded")
        }
    }
}
