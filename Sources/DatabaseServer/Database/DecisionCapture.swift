import Synchronization

/// Keeps the last rules decision a request caused, so that the request log can explain it
/// later. A door makes one per request (in its ``RequestScope``, or per realtime message), hands
/// it to ``RequestPipeline/run(_:capture:logged:status:failureStatus:_:)`` and to each namespace
/// call it makes for the request; the namespace hands it each decision it makes for a caller
/// (administrators are not decided). A call without one records nothing for the page.
package final class DecisionCapture: Sendable {
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
