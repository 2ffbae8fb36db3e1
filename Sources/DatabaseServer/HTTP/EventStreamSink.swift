/// A listener's queue for a streaming (`text/event-stream`) response: events wait in a bounded
/// buffer until the connection writes them. A client that lets the buffer fill is cut off.
struct EventStreamSink: EventSink {
    /// What the stream writes.
    enum Item: Sendable {
        case event(DatabaseEvent)
        case keepAlive
    }

    let continuation: AsyncStream<Item>.Continuation

    /// A sink and the stream it feeds, holding at most `capacity` unsent events.
    static func make(capacity: Int) -> (EventStreamSink, AsyncStream<Item>) {
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
        return (EventStreamSink(continuation: continuation), stream)
    }

    func deliver(_ event: DatabaseEvent) -> Bool {
        if case .dropped = continuation.yield(.event(event)) { return false }
        return true
    }

    func finish() { continuation.finish() }
}
