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
    /// Seconds a request body may take to arrive whole, from the end of its head (each byte does
    /// not reset it). A client that trickles a body is answered 408 and closed.
    package var bodyTimeoutSeconds: Double = 60
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
    /// The longest token a request may carry (`auth=`, `access_token=`, `Authorization:
    /// Bearer`, the realtime protocol's `auth`), in bytes. A Firebase ID token is about 1 KB
    /// (custom claims are limited to 1,000 bytes); a longer one is refused before it is decoded.
    package var maxTokenBytes: Int = 16 * 1024
    /// Listens one realtime connection (WebSocket or long polling) may hold at once; a listen
    /// beyond it is refused with an error answer, and the connection keeps its other listens.
    package var maxListensPerConnection: Int = 10_000
    /// onDisconnect operations one realtime connection may have queued; one beyond it is refused.
    package var maxOnDisconnectOperations: Int = 1_000
    /// Bytes of the values of the onDisconnect operations one realtime connection may have
    /// queued (their message sizes, counted together); one beyond it is refused.
    package var maxOnDisconnectBytes: Int = 16 * 1024 * 1024
    /// Bytes of the onDisconnect operations every realtime connection has queued, together; one
    /// beyond it is refused. Given back when the operations run, are cancelled (`oc`), or their
    /// connection closes.
    package var maxOnDisconnectBytesTotal: Int = 256 * 1024 * 1024
    /// Bytes of the queries (`q`: bounds and names, as sent) of the listens one realtime
    /// connection holds; a listen beyond it is refused with an error answer.
    package var maxListenQueryBytes: Int = 16 * 1024 * 1024
    /// Bytes of the queries of every realtime connection's listens, together; a listen beyond it
    /// is refused. Given back on unlisten, revocation and close.
    package var maxListenQueryBytesTotal: Int = 128 * 1024 * 1024
    /// Bytes of events waiting for every slow reader together (streaming listeners and realtime
    /// connections). An event is rendered once for all its listeners; past this budget, a
    /// listener that already has something waiting is cut off rather than given more.
    package var maxQueuedBytesTotal: Int = 256 * 1024 * 1024
    /// Long-polling sessions one client (``ClientKey``) may hold; 0 (the default): an eighth of
    /// ``maxLongPollSessions``. Clients elsewhere leave a quarter of them to this machine's.
    package var maxLongPollSessionsPerClient: Int = 0
    /// Connection places one client (``ClientKey``) may hold at once with streams
    /// (`text/event-stream`), WebSocket connections and request bodies being received; one
    /// beyond it is refused. 0 (the default): an eighth of ``maxConnections`` (see
    /// ``ClientShares``).
    package var maxLongLivedPerClient: Int = 0

    /// The defaults.
    package init() {}

    /// The limits that `rules serve --limit NAME=VALUE` sets, by name: every field above.
    package static var named: [(name: String, field: Field)] { [
        ("max-body-bytes", .int(\.maxBodyBytes)),
        ("max-body-bytes-in-flight", .int(\.maxBodyBytesInFlight)),
        ("max-queued-events", .int(\.maxQueuedEvents)),
        ("max-queued-bytes", .int(\.maxQueuedBytes)),
        ("max-queued-bytes-total", .int(\.maxQueuedBytesTotal)),
        ("max-wire-message-bytes", .int(\.maxWireMessageBytes)),
        ("max-wire-frame-bytes", .int(\.maxWireFrameBytes)),
        ("max-update-paths", .int(\.maxUpdatePaths)),
        ("max-connections", .int(\.maxConnections)),
        ("max-long-lived-per-client", .int(\.maxLongLivedPerClient)),
        ("max-token-bytes", .int(\.maxTokenBytes)),
        ("max-listens-per-connection", .int(\.maxListensPerConnection)),
        ("max-on-disconnect-operations", .int(\.maxOnDisconnectOperations)),
        ("max-on-disconnect-bytes", .int(\.maxOnDisconnectBytes)),
        ("max-on-disconnect-bytes-total", .int(\.maxOnDisconnectBytesTotal)),
        ("max-listen-query-bytes", .int(\.maxListenQueryBytes)),
        ("max-listen-query-bytes-total", .int(\.maxListenQueryBytesTotal)),
        ("max-long-poll-sessions", .int(\.maxLongPollSessions)),
        ("max-long-poll-sessions-per-client", .int(\.maxLongPollSessionsPerClient)),
        ("compaction-bytes", .int(\.compactionBytes)),
        ("idle-timeout", .seconds(\.idleTimeoutSeconds)),
        ("header-timeout", .seconds(\.headerTimeoutSeconds)),
        ("body-timeout", .seconds(\.bodyTimeoutSeconds)),
        ("long-poll-hold", .seconds(\.longPollHoldSeconds)),
        ("long-poll-idle", .seconds(\.longPollIdleSeconds)),
        ("keep-alive", .seconds(\.keepAliveSeconds)),
    ] }

    /// A field that `--limit` sets.
    package enum Field {
        /// A count or a size: a positive integer (`_` may group digits).
        case int(WritableKeyPath<ServerLimits, Int>)
        /// Seconds: a positive number.
        case seconds(WritableKeyPath<ServerLimits, Double>)
    }

    /// Sets a limit from `NAME=VALUE`, or says why it cannot.
    package mutating func set(_ assignment: String) throws(LimitError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw LimitError(message: "--limit takes NAME=VALUE (for example max-listens-per-connection=100), not '\(assignment)'")
        }
        let name = String(assignment[..<equals]), text = String(assignment[assignment.index(after: equals)...]).replacingOccurrences(of: "_", with: "")
        guard let field = Self.named.first(where: { $0.name == name })?.field else {
            throw LimitError(message: "unknown limit '\(name)'; the limits are: " + Self.named.map(\.name).joined(separator: ", "))
        }
        switch field {
        case .int(let key):
            guard let value = Int(text), value > 0 else { throw LimitError(message: "--limit \(name) takes a positive whole number, not '\(text)'") }
            self[keyPath: key] = value
        case .seconds(let key):
            guard let value = Double(text), value > 0, value.isFinite else { throw LimitError(message: "--limit \(name) takes a positive number of seconds, not '\(text)'") }
            self[keyPath: key] = value
        }
    }

    /// A `--limit` that cannot be set.
    package struct LimitError: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }
}
