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

    /// Every field above, once: its name (`rules serve --limit NAME=VALUE`), its kind and the
    /// values it takes, and the dedicated flag that is another spelling of it, if any. Setting
    /// and checking a limit, the names `--limit` lists and the table in `docs/limits.md` come from
    /// this list; a test checks that it names every field once.
    package static var settings: [Setting] { [
        Setting("max-body-bytes", .count(\.maxBodyBytes)),
        Setting("max-body-bytes-in-flight", .count(\.maxBodyBytesInFlight)),
        Setting("max-queued-events", .count(\.maxQueuedEvents)),
        Setting("max-queued-bytes", .count(\.maxQueuedBytes)),
        Setting("max-queued-bytes-total", .count(\.maxQueuedBytesTotal)),
        Setting("max-wire-message-bytes", .count(\.maxWireMessageBytes)),
        Setting("max-wire-frame-bytes", .count(\.maxWireFrameBytes)),
        Setting("max-update-paths", .count(\.maxUpdatePaths)),
        Setting("max-connections", .count(\.maxConnections), flag: true),
        Setting("max-long-lived-per-client", .count(\.maxLongLivedPerClient), note: "the default 0: an eighth of max-connections"),
        Setting("max-token-bytes", .count(\.maxTokenBytes)),
        Setting("max-listens-per-connection", .count(\.maxListensPerConnection)),
        Setting("max-on-disconnect-operations", .count(\.maxOnDisconnectOperations)),
        Setting("max-on-disconnect-bytes", .count(\.maxOnDisconnectBytes)),
        Setting("max-on-disconnect-bytes-total", .count(\.maxOnDisconnectBytesTotal)),
        Setting("max-listen-query-bytes", .count(\.maxListenQueryBytes)),
        Setting("max-listen-query-bytes-total", .count(\.maxListenQueryBytesTotal)),
        Setting("max-long-poll-sessions", .count(\.maxLongPollSessions)),
        Setting("max-long-poll-sessions-per-client", .count(\.maxLongPollSessionsPerClient), note: "the default 0: an eighth of max-long-poll-sessions"),
        Setting("compaction-bytes", .count(\.compactionBytes)),
        Setting("idle-timeout", .seconds(\.idleTimeoutSeconds, 0.1...86400), flag: true),
        Setting("header-timeout", .seconds(\.headerTimeoutSeconds, 0.1...3600), flag: true),
        Setting("body-timeout", .seconds(\.bodyTimeoutSeconds, 0.1...86400)),
        Setting("long-poll-hold", .seconds(\.longPollHoldSeconds, 0.05...24), flag: true, note: "the SDK polls again after 25"),
        Setting("long-poll-idle", .seconds(\.longPollIdleSeconds, 1...3600), flag: true),
        Setting("keep-alive", .seconds(\.keepAliveSeconds, 0.1...3600), flag: true),
    ] }

    /// One limit as the command line names it.
    package struct Setting {
        /// Its name: `--limit NAME=VALUE`, and `--NAME VALUE` when ``flag``.
        package let name: String
        /// The field and the values it takes.
        package let field: Field
        /// Whether `rules serve` also takes it as a flag of its own (`--keep-alive 5`).
        package let flag: Bool
        /// Why its range is what it is, when it is not plain.
        package let note: String?

        init(_ name: String, _ field: Field, flag: Bool = false, note: String? = nil) {
            self.name = name
            self.field = field
            self.flag = flag
            self.note = note
        }

        /// Its value in `limits`, as `--limit` writes it.
        package func value(in limits: ServerLimits) -> String {
            switch field {
            case .count(let key): String(limits[keyPath: key])
            case .seconds(let key, _): Self.seconds(limits[keyPath: key])
            }
        }

        /// The values it takes, in words (`1 or more`, `0.1 to 3600 s`).
        package var range: String {
            switch field {
            case .count: "1 or more"
            case .seconds(_, let r): "\(Self.seconds(r.lowerBound)) to \(Self.seconds(r.upperBound)) s"
            }
        }

        /// Sets it in `limits` from `text` (`_` may group digits), or says why it cannot; `spelling` is
        /// how the command line named it (`--limit keep-alive`, `--keep-alive`).
        func set(_ text: String, in limits: inout ServerLimits, spelling: String) throws(LimitError) {
            let digits = text.replacingOccurrences(of: "_", with: "")
            switch field {
            case .count(let key):
                guard let value = Int(digits), value > 0 else { throw LimitError(message: "\(spelling) takes a positive whole number, not '\(text)'") }
                limits[keyPath: key] = value
            case .seconds(let key, let r):
                guard let value = Double(digits), value.isFinite else { throw LimitError(message: "\(spelling) takes a number of seconds, not '\(text)'") }
                guard r.contains(value) else {
                    let between = "between \(Self.seconds(r.lowerBound)) and \(Self.seconds(r.upperBound)) seconds"
                    throw LimitError(message: "\(spelling) must be \(between)\(note.map { " (\($0))" } ?? ""); got \(text)")
                }
                limits[keyPath: key] = value
            }
        }

        static func seconds(_ s: Double) -> String {
            s == s.rounded() && abs(s) < 1e15 ? String(Int(s)) : String(s)
        }
    }

    /// A field a ``Setting`` sets.
    package enum Field {
        /// A count or a size: a positive integer.
        case count(WritableKeyPath<ServerLimits, Int>)
        /// Seconds, within a range.
        case seconds(WritableKeyPath<ServerLimits, Double>, ClosedRange<Double>)
    }

    /// The setting named `name`.
    package static func setting(_ name: String) -> Setting? { settings.first { $0.name == name } }

    /// Sets a limit from `NAME=VALUE`, or says why it cannot.
    package mutating func set(_ assignment: String) throws(LimitError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw LimitError(message: "--limit takes NAME=VALUE (for example max-listens-per-connection=100), not '\(assignment)'")
        }
        let name = String(assignment[..<equals]), text = String(assignment[assignment.index(after: equals)...])
        guard let setting = Self.setting(name) else {
            throw LimitError(message: "unknown limit '\(name)'; the limits are: " + Self.settings.map(\.name).joined(separator: ", "))
        }
        try setting.set(text, in: &self, spelling: "--limit \(name)")
    }

    /// Sets the limit `name` from its own flag (`--keep-alive 5`), with the checks of `--limit`.
    package mutating func set(_ name: String, flag text: String) throws(LimitError) {
        guard let setting = Self.setting(name) else { throw LimitError(message: "unknown limit '\(name)'") }
        try setting.set(text, in: &self, spelling: "--\(name)")
    }

    /// Says why limits that are each in range do not fit together, if they do not: a long-polling
    /// client is taken to be gone only after longer than a request is held.
    package func check() throws(LimitError) {
        guard longPollIdleSeconds > longPollHoldSeconds else {
            throw LimitError(message: "long-poll-idle (\(Setting.seconds(longPollIdleSeconds)) s) must be longer than long-poll-hold (\(Setting.seconds(longPollHoldSeconds)) s): a client would be taken to be gone while its request is held")
        }
    }

    /// The table of `docs/limits.md` that lists every setting (a test keeps the two in step).
    package static var documentationTable: String {
        let defaults = ServerLimits()
        var out = "| `--limit` name | Default | Values | Own flag |\n| --- | --- | --- | --- |\n"
        for s in settings {
            out += "| `\(s.name)` | \(s.value(in: defaults)) | \(s.range)\(s.note.map { " (\($0))" } ?? "") | \(s.flag ? "`--\(s.name)`" : "") |\n"
        }
        return out
    }

    /// A limit that cannot be set.
    package struct LimitError: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }
}
