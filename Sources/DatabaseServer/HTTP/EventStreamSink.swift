/// A listener's queue for a streaming (`text/event-stream`) response: events wait in a bounded
/// buffer until the connection writes them. A client that lets the buffer fill (more than
/// `maxQueuedEvents` events or `maxQueuedBytes` bytes) is cut off.
struct EventStreamSink: EventSink {
    /// What the stream writes.
    enum Item: Sendable {
        /// An event and the bytes counted for it (released once written).
        case event(DatabaseEvent, bytes: Int)
        case keepAlive
    }

    let continuation: AsyncStream<Item>.Continuation
    /// The bytes waiting.
    let budget: QueueBudget
    /// Called once when the queue overflows: the client is cut off.
    let onCutOff: @Sendable () -> Void

    /// A sink and the stream it feeds, holding at most `capacity` unsent events and `bytes`
    /// unsent bytes.
    static func make(capacity: Int, bytes: Int, shared: QueueBudget.Shared? = nil, onCutOff: @escaping @Sendable () -> Void = {}) -> (EventStreamSink, AsyncStream<Item>) {
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
        return (EventStreamSink(continuation: continuation, budget: QueueBudget(limit: bytes, shared: shared), onCutOff: onCutOff), stream)
    }

    func deliver(_ event: DatabaseEvent) -> Bool {
        let bytes = Self.size(of: event)
        guard budget.admit(.event(event, bytes: bytes), bytes: bytes, into: continuation) else {
            onCutOff()
            return false
        }
        return true
    }

    func finish() { continuation.finish() }

    /// The bytes an event takes in the stream (its JSON value; the framing is small).
    static func size(of event: DatabaseEvent) -> Int {
        switch event {
        case .put(let path, let value), .patch(let path, let value): path.utf8.count + value.plain.utf8.count + 40
        case .cancel, .authRevoked: 40
        }
    }
}
