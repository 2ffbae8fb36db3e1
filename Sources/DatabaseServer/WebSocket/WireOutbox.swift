/// Everything a connection sends, in order: replies, pushes from any writer, and control
/// messages go through one queue, so a write's own events reach the client before its `ok`.
/// The queue is bounded; a client that lets it fill is disconnected.
struct WireOutbox: Sendable {
    let continuation: AsyncStream<String>.Continuation

    static func make(capacity: Int) -> (WireOutbox, AsyncStream<String>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
        return (WireOutbox(continuation: continuation), stream)
    }

    /// Queues a message; false when the queue is full.
    @discardableResult
    func send(_ message: String) -> Bool {
        if case .dropped = continuation.yield(message) { return false }
        return true
    }

    /// `{"t":"d","d":{"a":action,"b":body}}`: a push.
    func push(_ action: String, _ body: String) -> Bool {
        send(#"{"t":"d","d":{"a":""# + action + #"","b":"# + body + "}}")
    }

    func finish() { continuation.finish() }
}
