/// The server-wide totals every realtime session (WebSocket or long polling) takes from, made
/// once by the server and handed to each session it creates: the bytes of query listens and of
/// queued onDisconnect operations. A session made without them (tests) gets totals of its own.
package struct WireTotals: Sendable {
    /// The bytes of the queries (bounds and names) of every session's listens.
    package let listenQueries: ByteTotal
    /// The bytes of every session's queued onDisconnect operations.
    package let onDisconnect: ByteTotal

    /// Totals of the sizes `limits` sets.
    package init(_ limits: ServerLimits) {
        listenQueries = ByteTotal(total: limits.maxListenQueryBytesTotal)
        onDisconnect = ByteTotal(total: limits.maxOnDisconnectBytesTotal)
    }
}
