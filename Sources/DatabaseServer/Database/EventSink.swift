/// Where a listener's events go: a transport's connection. ``deliver(_:)`` never blocks.
package protocol EventSink: Sendable {
    /// Queues an event for the client. Returns false when the client's queue is full (it reads
    /// too slowly): the listener is then cancelled and closed.
    func deliver(_ event: DatabaseEvent) -> Bool
    /// Ends the stream after what was queued (cancelled or removed listeners).
    func finish()
}
