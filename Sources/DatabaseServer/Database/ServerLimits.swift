/// The bounds the server keeps, each documented in `docs/limits.md`.
package struct ServerLimits: Sendable, Hashable {
    /// The largest request body accepted (production's REST write limit is 256 MB); larger
    /// bodies are refused with 413 before they are read whole.
    package var maxBodyBytes: Int = 256 * 1024 * 1024
    /// Events a streaming listener may have waiting unsent; a client that lets more pile up is
    /// cut off (its stream is closed).
    package var maxQueuedEvents: Int = 10_000
    /// Bytes a listener (SSE) or a WebSocket connection may have waiting unsent, beyond one
    /// message; a client that lets more pile up is cut off, so a client that reads nothing costs
    /// the server at most this much.
    package var maxQueuedBytes: Int = 16 * 1024 * 1024
    /// The largest message a WebSocket client may send, after its pieces are joined; a larger one
    /// closes the connection.
    package var maxWireMessageBytes: Int = 16 * 1024 * 1024
    /// The largest single WebSocket message (one piece of the protocol's own framing; the SDKs
    /// send at most 16,384 UTF-16 units a piece).
    package var maxWireFrameBytes: Int = 1024 * 1024
    /// Log bytes of a namespace after which durable storage writes a snapshot and drops the log
    /// before it (unless the last snapshot was larger): the data file stays within a small
    /// multiple of the data.
    package var compactionBytes: Int = 16 * 1024 * 1024
    /// Paths in one multi-path update (PATCH, or the SDKs' `m`); the library sets no limit, and
    /// a larger update is refused before any of it is decided.
    package var maxUpdatePaths: Int = 100_000
    /// Connections open at once (HTTP, streaming and WebSocket together). When a new connection
    /// fills the last place, the oldest connection with no request in progress is closed;
    /// when every one is busy, further clients wait in the listen backlog until one closes.
    package var maxConnections: Int = 4096
    /// Seconds an HTTP connection may stay open without a request in progress (a client that
    /// connects and never speaks, or sends half a request head, is closed after this).
    package var idleTimeoutSeconds: Double = 120
    /// Seconds a connection may take to send a whole request head: from connecting, and on a
    /// kept-alive connection from the first byte of the next request. A client that connects and
    /// never speaks, or sends a head slowly (slowloris), is closed after this, whatever the idle
    /// timeout.
    package var headerTimeoutSeconds: Double = 10
    /// Bytes of request bodies held at once, across every connection; a request whose body
    /// would go over what is left gets 503 with `Retry-After` (its body is not read). At least
    /// ``maxBodyBytes``, so that one largest body always fits an otherwise idle server.
    package var maxBodyBytesInFlight: Int = 512 * 1024 * 1024
    /// Seconds a long-polling request is held open when there is nothing to send (below the
    /// SDK's 25-second keepalive, after which it sends another poll beside it).
    package var longPollHoldSeconds: Double = 20
    /// Seconds without a request after which a long-polling client is taken to be gone (its
    /// session ends and its onDisconnect operations run) when its disconnect frame did not say
    /// so; generous, as browsers slow timers in background tabs.
    package var longPollIdleSeconds: Double = 30
    /// Long-polling sessions open at once; a start request beyond it is refused (the SDK
    /// retries with its back-off).
    package var maxLongPollSessions: Int = 1000
    /// Seconds between `keep-alive` events on an idle stream.
    package var keepAliveSeconds: Double = 30

    /// The defaults.
    package init() {}
}
