/// What ``Database/compareAndSet(path:expectedHash:value:rules:auth:now:explain:)`` did.
public struct CompareAndSetResult: Sendable {
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
    /// The rules' decision on the write.
    public let decision: Decision
    /// After a commit, the new hash at the path; when stale, the current one (`""` when denied).
    public let hash: String
}
