import DatabaseRules

/// Everything a connection sends, in order: replies, pushes from any writer, and control
/// messages go through one queue, so a write's own events reach the client before its `ok`.
/// The queue is bounded (in messages and in bytes, ``ServerLimits``); a client that lets it fill
/// is disconnected (`onOverflow`).
///
/// A write's `ok` waits in the queue until the write is on disk (with `--data`); what follows it
/// waits too, so the connection's order is kept while the reader goes on with later messages.
struct WireOutbox: Sendable {
    /// One queued message.
    enum Item: Sendable {
        /// A message sent as it is.
        case message(String)
        /// The `ok` of request `r` (its reply data `data`), sent once `durability` is reached,
        /// or an `unavailable` reply if storing the write failed.
        case acknowledgement(r: Int, data: String, durability: Durability)
        /// The end of transmission on the transport a session leaves (`n`): what was queued
        /// before it goes on the old transport, what follows on the new one.
        case endOfTransmission
    }

    let continuation: AsyncStream<Item>.Continuation
    /// The bytes waiting.
    let budget: QueueBudget
    /// Called when the queue is full.
    let onOverflow: @Sendable () -> Void

    static func make(capacity: Int, bytes: Int, shared: QueueBudget.Shared? = nil, onOverflow: @escaping @Sendable () -> Void) -> (WireOutbox, AsyncStream<Item>) {
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
        return (WireOutbox(continuation: continuation, budget: QueueBudget(limit: bytes, shared: shared), onOverflow: onOverflow), stream)
    }

    /// Queues a message; false when the queue is full.
    @discardableResult
    func send(_ message: String) -> Bool {
        enqueue(.message(message))
    }

    /// Queues a write's `ok`, to be sent once the write is durable; false when the queue is full.
    @discardableResult
    func acknowledge(_ r: Int, data: String, after durability: Durability) -> Bool {
        enqueue(.acknowledgement(r: r, data: data, durability: durability))
    }

    /// Queues the end of transmission on the transport the session leaves.
    func endTransmission() {
        _ = enqueue(.endOfTransmission)
    }

    private func enqueue(_ item: Item) -> Bool {
        guard budget.admit(item, bytes: Self.size(of: item), into: continuation) else {
            onOverflow()
            continuation.finish()
            return false
        }
        return true
    }

    /// The bytes an item counts for.
    static func size(of item: Item) -> Int {
        switch item {
        case .message(let text): text.utf8.count
        case .acknowledgement(_, let data, _): data.utf8.count + 40
        case .endOfTransmission: 0
        }
    }

    /// `{"t":"d","d":{"a":action,"b":body}}`: a push.
    func push(_ action: String, _ body: String) -> Bool {
        send(#"{"t":"d","d":{"a":""# + action + #"","b":"# + body + "}}")
    }

    /// `{"t":"d","d":{"r":r,"b":{"s":status,"d":data}}}`: the reply to request `r`.
    static func reply(_ r: Int, _ status: String, _ data: String) -> String {
        #"{"t":"d","d":{"r":\#(r),"b":{"s":""# + status + #"","d":"# + data + "}}}"
    }

    /// `{"t":"c","d":{"t":"o","d":{}}}`: the answer to a ping.
    static let pong = #"{"t":"c","d":{"t":"o","d":{}}}"#

    /// `{"t":"c","d":{"t":"n","d":{}}}`: the end of transmission on a transport.
    static let endOfTransmissionMessage = #"{"t":"c","d":{"t":"n","d":{}}}"#

    /// The text of an item, waiting for its write to be durable first.
    func text(of item: Item) async -> String {
        budget.release(Self.size(of: item))
        switch item {
        case .message(let text):
            return text
        case .acknowledgement(let r, let data, let durability):
            do {
                try await durability.wait()
                return Self.reply(r, "ok", data)
            } catch {
                return Self.reply(r, "unavailable", JSONText.quote(error.message))
            }
        case .endOfTransmission:
            return Self.endOfTransmissionMessage
        }
    }

    func finish() { continuation.finish() }
}
