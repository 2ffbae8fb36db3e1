import Synchronization

/// Keeps the last rules decision a request caused, so that the request log can explain it
/// later. A transport sets ``current`` for the time it handles one request; the namespace hands
/// each decision it makes for a caller (administrators are not decided) to it.
package final class DecisionCapture: Sendable {
    /// The capture of the request being handled by this task, if any.
    @TaskLocal package static var current: DecisionCapture?

    private let last = Mutex<RecordedDecision?>(nil)

    /// An empty capture.
    package init() {}

    /// Keeps a decision (replacing the one before: the last decision is the one that answered).
    func keep(_ decision: RecordedDecision) {
        last.withLock { $0 = decision }
    }

    /// The decision kept, if the request caused one.
    package var decision: RecordedDecision? { last.withLock { $0 } }
}
