import DatabaseRules
import Foundation
import Synchronization

/// One session of the SDKs' realtime protocol, whatever carries it: the data layer of
/// `{"t":"d",…}` requests and `{"t":"c",…}` control messages. It turns each request into an
/// operation on its ``Namespace`` and answers through one ordered ``WireOutbox``; the transport
/// that carries the session (``WebSocketDoor``, or ``LongPollSession`` and later the WebSocket
/// it upgrades to) feeds it messages strictly in order and sends what the outbox yields.
/// onDisconnect operations run when the transport says the client is gone (``disconnected()``).
final class WireSession: Sendable {
    /// What the session's messages change. One task feeds the messages, in order; the lock makes
    /// what other tasks read of it (the namespace's name for a log line, say) safe, and lets the
    /// compiler check that.
    private struct State {
        /// The namespace it reads (a write registers it, if it is not yet: the same object).
        var namespace: Namespace
        var identity = Identity.user(.null)
        var listens: [String: Listen] = [:]
        var onDisconnect: [(operation: DatabaseOperation, path: DataPath, bytes: Int)] = []
        /// The bytes of the queued onDisconnect operations' messages.
        var onDisconnectBytes = 0
        /// The bytes of the listens' queries (``Listen/queryBytes``), together.
        var listenQueryBytes = 0
        /// When the write the current message made may be acknowledged (set by ``perform``).
        var durability: Durability?
        /// Where the namespace keeps the decision the current message causes (set by ``handle``).
        var capture: DecisionCapture?
    }

    /// One listen of the session.
    private struct Listen {
        let id: Int
        let path: DataPath
        let query: Query
        let tag: Int?
        let queryJSON: String?
        /// The bytes of its query as sent (`q`: bounds and names), reserved from the session's
        /// and the server's budgets of query bytes while it lasts.
        let queryBytes: Int
    }

    private let state: Mutex<State>
    /// Where a write registers the namespace (nil: it is registered).
    private let registry: NamespaceRegistry?
    private let log: RequestLog
    private let limits: ServerLimits
    private let host: String
    /// The session id of the handshake (`s`), which an upgrade names.
    let session: String
    private let explainDenials: Bool
    /// Where the connection comes from (the administrator is refused to other sites' pages).
    private let origin: RequestOrigin
    /// The server-wide totals of query bytes and onDisconnect bytes this session takes from.
    private let totals: WireTotals
    /// Why the server ends the session, once it does.
    let closeReason = WireCloseReason()
    /// Everything the session sends, in order.
    let outbox: WireOutbox
    /// What the outbox yields, for the transport to send.
    let stream: AsyncStream<WireOutbox.Item>
    /// The transport named in the request log (`ws`, `lp`).
    private let transportName: Mutex<RequestRecord.Transport>
    private var namespace: Namespace {
        get { state.withLock { $0.namespace } }
        set { state.withLock { $0.namespace = newValue } }
    }
    private var identity: Identity {
        get { state.withLock { $0.identity } }
        set { state.withLock { $0.identity = newValue } }
    }
    private var durability: Durability? {
        get { state.withLock { $0.durability } }
        set { state.withLock { $0.durability = newValue } }
    }
    private var capture: DecisionCapture? {
        get { state.withLock { $0.capture } }
        set { state.withLock { $0.capture = newValue } }
    }

    /// A session; `onOverflow` runs when the client lets more wait than ``ServerLimits`` allow
    /// (after the reason is set and the session's namespace and id are logged).
    init(namespace: Namespace, registry: NamespaceRegistry? = nil, log: RequestLog, limits: ServerLimits, host: String, session: String, explainDenials: Bool,
         transport: RequestRecord.Transport, origin: RequestOrigin, pending: QueueBudget.Shared? = nil, totals: WireTotals? = nil,
         onOverflow: @escaping @Sendable () -> Void = {}) {
        self.state = Mutex(State(namespace: namespace))
        self.origin = origin
        self.totals = totals ?? WireTotals(limits)
        self.registry = registry
        self.log = log
        self.limits = limits
        self.host = host
        self.session = session
        self.explainDenials = explainDenials
        self.transportName = Mutex(transport)
        let ns = namespace.name, reason = closeReason, console = log.console
        (outbox, stream) = WireOutbox.make(capacity: limits.maxQueuedEvents, bytes: limits.maxQueuedBytes, shared: pending) {
            if reason.set("the client reads too slowly: too much waits for it (\(limits.maxQueuedEvents) messages, \(limits.maxQueuedBytes) bytes; \(limits.maxQueuedBytesTotal) for all)") {
                console.say("\(transport) \(ns) session \(session): closing the connection: the client reads too slowly")
            }
            onOverflow()
        }
    }

    /// The transport named in the request log from now on.
    var transport: RequestRecord.Transport {
        get { transportName.withLock { $0 } }
        set { transportName.withLock { $0 = newValue } }
    }

    /// The server's hello, `{"t":"c","d":{"t":"h","d":{"ts","v":"5","h","s"}}}`: the first
    /// message of a session.
    var handshake: String {
        let ts = Int(Date().timeIntervalSince1970 * 1000)
        return #"{"t":"c","d":{"t":"h","d":{"ts":\#(ts),"v":"5","h":"# + JSONText.quote(host) + #","s":"# + JSONText.quote(session) + "}}}"
    }

    /// The namespace the session reads.
    var namespaceName: String { namespace.name }

    /// Ends the session from the server's side with a logged reason (protocol errors,
    /// overflow): the outbox is finished, so the transport closes once it has sent what waits.
    func close(_ why: String) {
        closeReason.set(why)
        log.console.say("\(transport) \(namespace.name) session \(session): closing the connection: \(why)")
        outbox.finish()
    }

    // MARK: - Messages

    /// Handles one message: a ping is answered with a pong, other control messages are the
    /// transport's business; a request is performed and answered. Throws for a message the
    /// session cannot use (the transport then closes it with the reason).
    func handle(_ message: WireMessage) async throws(WireMessage.Malformed) {
        if message.layer == "c" {
            if message.control == "p" { outbox.send(WireOutbox.pong) }
            return
        }
        guard let r = message.request, let action = message.action else { return }
        let record = RequestRecord(transport: transport, method: action, namespace: namespace.name, path: message.string("p") ?? "-", identity: identity)
        let now = Date().millisecondsSince1970
        do {
            durability = nil
            let capture = DecisionCapture()
            self.capture = capture
            defer { self.capture = nil }
            let data = try await RequestPipeline(log: log).run(record, capture: capture, status: { _ in 0 }, failureStatus: { _ in 0 }) { record in
                defer { record.identify(identity) }
                do {
                    return try await perform(action, message, r: r, now: now)
                } catch WireFailure.server(let error) {
                    throw error
                }
            }
            if let durability {
                outbox.acknowledge(r, data: data, after: durability)
            } else {
                reply(r, "ok", data)
            }
        } catch let error as ServerError {
            if error.kind == .permissionDenied, explainDenials, let why = error.explanation {
                _ = outbox.push("sd", #"{"msg":"# + JSONText.quote(why) + "}")
            }
            reply(r, Self.status(error), JSONText.quote(error.message))
        } catch WireFailure.status(let status, let text) {
            reply(r, status, JSONText.quote(text))
        } catch WireFailure.malformed(let why) {
            throw WireMessage.Malformed(reason: why)
        } catch {
            throw WireMessage.Malformed(reason: "\(error)")
        }
    }

    /// Why a request failed.
    private enum WireFailure: RequestPipeline.Failure {
        case malformed(String)
        case status(String, String)
        case server(ServerError)

        var logReason: String {
            switch self {
            case .malformed(let why): "malformed message: \(why)"
            case .status("datastale", let text): "transaction retry: the data changed since the client read it (\(text))"
            case .status(_, let text): text
            case .server(let error): error.logReason
            }
        }

        /// A stale transaction (`datastale`) is a retry, not an error.
        var verdict: RequestRecord.Verdict {
            if case .status("datastale", _) = self { return .stale }
            return .error
        }
    }

    private static func status(_ error: ServerError) -> String {
        switch error.kind {
        case .permissionDenied: "permission_denied"
        case .tooLarge: "write_too_big"
        case .overloaded, .unavailable: "unavailable"
        default: "invalid_data"
        }
    }

    private func reply(_ r: Int, _ status: String, _ data: String) {
        outbox.send(WireOutbox.reply(r, status, data))
    }

    /// Runs one action; returns the reply's `d` as JSON.
    private func perform(_ action: String, _ message: WireMessage, r: Int, now: Double) async throws -> String {
        switch action {
        case "s", "appcheck", "unappeck":
            return "{}"
        case "auth", "gauth":
            guard let cred = message.string("cred") else { throw WireFailure.malformed("\(action) needs a string \"cred\"") }
            var credentials = Credentials(token: cred)
            if action == "gauth" {
                if case .bool(true)? = message.body["noauth"]?.kind {
                    credentials.authOverride = "null"
                } else if message.body["authvar"] != nil {
                    credentials.authOverride = message.rawText("authvar")
                }
            }
            do {
                try await setIdentity(credentials.identity(origin: origin, maxTokenBytes: limits.maxTokenBytes), now: now)
            } catch {
                throw WireFailure.status("invalid_token", error.message)
            }
            return #"{"auth":"# + (identity.auth.map(Self.json) ?? "null") + "}"
        case "unauth":
            await setIdentity(.user(.null), now: now)
            return "{}"
        case "q":
            return try await listen(message, now: now)
        case "n":
            let path = try path(message)
            let key = Self.listenKey(path, tag: Self.tag(message))
            if let listen = removeListen(key) { namespace.unlisten(listen.id) }
            return "{}"
        case "p":
            let path = try path(message)
            let value = try value(message, "d", at: path)
            let condition = message.string("h").map { Namespace.Condition.ifHash($0) }
            if condition == nil, message.body["h"] != nil { throw WireFailure.malformed("h must be a string") }
            let identity = identity, namespace = try writable(), capture = capture
            switch try await serverCall({ () async throws(ServerError) in
                try await namespace.write(.set(path: path.description, value: value), as: identity, now: now, condition: condition, capture: capture)
            }) {
            case .committed(_, let durability):
                self.durability = durability
                return "{}"
            case .stale: throw WireFailure.status("datastale", "Transaction hash does not match")
            }
        case "m":
            let path = try path(message)
            let entries = try updateEntries(message, at: path)
            let identity = identity, namespace = try writable(), capture = capture
            if case .committed(_, let durability) = try await serverCall({ () async throws(ServerError) in
                try await namespace.write(.update(path: path.description, values: entries), as: identity, now: now, capture: capture)
            }) {
                self.durability = durability
            }
            return "{}"
        case "o", "om":
            let path = try path(message)
            let operation: DatabaseOperation = action == "o"
                ? .set(path: path.description, value: try value(message, "d", at: path))
                : .update(path: path.description, values: try updateEntries(message, at: path))
            let bytes = message.size
            let (queued, onDisconnectBytes) = state.withLock { ($0.onDisconnect.count, $0.onDisconnectBytes) }
            guard queued < limits.maxOnDisconnectOperations else {
                throw WireFailure.server(ServerError(
                    .overloaded, "Too many onDisconnect operations on this connection: the limit is \(limits.maxOnDisconnectOperations) (rules serve --limit max-on-disconnect-operations=N)."))
            }
            guard bytes <= limits.maxOnDisconnectBytes - onDisconnectBytes else {
                throw WireFailure.server(ServerError(
                    .overloaded, "The onDisconnect operations of this connection would hold \(onDisconnectBytes + bytes) bytes: the limit is \(limits.maxOnDisconnectBytes) (rules serve --limit max-on-disconnect-bytes=N)."))
            }
            guard totals.onDisconnect.reserve(bytes) else {
                throw WireFailure.server(ServerError(
                    .overloaded,
                    "The onDisconnect operations of every connection would hold more than \(totals.onDisconnect.total) bytes, the server's limit (rules serve --limit max-on-disconnect-bytes-total=N); this one of \(bytes) bytes is refused."))
            }
            let identity = identity, namespace = namespace
            do {
                try await serverCall({ () async throws(ServerError) in try await namespace.check(operation, as: identity, now: now) })
            } catch {
                totals.onDisconnect.release(bytes)
                throw error
            }
            state.withLock { state in
                state.onDisconnect.append((operation, path, bytes))
                state.onDisconnectBytes += bytes
            }
            return "{}"
        case "oc":
            let path = try path(message)
            let freed = state.withLock { state in
                var freed = 0
                state.onDisconnect.removeAll { entry in
                    guard path.isPrefix(of: entry.path) else { return false }
                    freed += entry.bytes
                    return true
                }
                state.onDisconnectBytes -= freed
                return freed
            }
            totals.onDisconnect.release(freed)
            return "{}"
        case "g":
            let path = try path(message)
            let query = try WireQuery.parse(message.body["q"])
            let identity = identity, capture = capture, namespace = namespace
            let node = try await serverCall({ () async throws(ServerError) in
                try await namespace.read(path, query: query, as: identity, now: now, requireIndex: false, capture: capture).node
            })
            return node?.exportJSON(includePriority: true) ?? "null"
        default:
            throw WireFailure.malformed("unknown action \"\(action)\"")
        }
    }

    /// The namespace, registered for a write (a visitor's first write makes it; refused when
    /// the server holds as many namespaces as it may).
    private func writable() throws(ServerError) -> Namespace {
        let current = namespace
        guard let registry, let name = try? NamespaceName(validating: current.name) else { return current }
        let registered = try registry.namespace(forWriting: name)
        namespace = registered
        return registered
    }

    private func serverCall<T>(_ body: () async throws(ServerError) -> T) async throws -> T {
        do { return try await body() } catch { throw WireFailure.server(error) }
    }

    // MARK: - Listens

    private func listen(_ message: WireMessage, now: Double) async throws -> String {
        let path = try path(message)
        let queryNode = message.body["q"]
        let query: Query
        do { query = try WireQuery.parse(queryNode) } catch { throw WireFailure.server(error) }
        let tag = Self.tag(message)
        let key = Self.listenKey(path, tag: tag)
        let namespace = namespace
        let old = removeListen(key)
        if let old { namespace.unlisten(old.id) }
        let (count, held) = state.withLock { state in (state.listens.count, state.listenQueryBytes) }
        guard count < limits.maxListensPerConnection else {
            throw WireFailure.server(ServerError(
                .overloaded, "Too many listens on this connection: the limit is \(limits.maxListensPerConnection) (rules serve --limit max-listens-per-connection=N)."))
        }
        let queryJSON = queryNode == nil ? nil : message.rawText("q")
        let queryBytes = queryJSON?.utf8.count ?? 0
        guard queryBytes <= limits.maxListenQueryBytes - held else {
            throw WireFailure.server(ServerError(
                .overloaded,
                "The query listens of this connection would hold \(held + queryBytes) bytes of query bounds and names: the limit is \(limits.maxListenQueryBytes) (rules serve --limit max-listen-query-bytes=N)."))
        }
        guard totals.listenQueries.reserve(queryBytes) else {
            throw WireFailure.server(ServerError(
                .overloaded,
                "The query listens of every connection would hold more than \(totals.listenQueries.total) bytes of query bounds and names, the server's limit (rules serve --limit max-listen-query-bytes-total=N); this listen's query of \(queryBytes) bytes is refused."))
        }
        let sink = makeSink(path, tag: tag, queryJSON: queryJSON)
        let identity = identity, capture = capture
        // The value is pushed before the `ok` (and before any later write's event), unless the
        // client's hash shows it has it already.
        let clientHash = message.string("h") ?? ""
        let id: Int
        do {
            id = try await serverCall({ () async throws(ServerError) in
                try await namespace.listen(path, query: query, as: identity, sink: sink, now: now, requireIndex: false, capture: capture) { initial in
                    clientHash.isEmpty || clientHash != NodeHash.of(initial) ? .put(path: "/", value: RenderedValue(.node(initial))) : nil
                }
            }).0
        } catch {
            totals.listenQueries.release(queryBytes)
            throw error
        }
        state.withLock { state in
            state.listens[key] = Listen(id: id, path: path, query: query, tag: tag, queryJSON: queryJSON, queryBytes: queryBytes)
            state.listenQueryBytes += queryBytes
        }
        return namespace.hasIndex(for: query, at: path) ? "{}" : #"{"w":["no_index"]}"#
    }

    /// Takes a listen out of the session, giving back its query's bytes (the caller ends it in
    /// the namespace).
    private func removeListen(_ key: String) -> Listen? {
        let listen = state.withLock { state -> Listen? in
            guard let listen = state.listens.removeValue(forKey: key) else { return nil }
            state.listenQueryBytes -= listen.queryBytes
            return listen
        }
        if let listen { totals.listenQueries.release(listen.queryBytes) }
        return listen
    }

    private func makeSink(_ path: DataPath, tag: Int?, queryJSON: String?) -> WireListenSink {
        WireListenSink(outbox: outbox, path: path.description, tag: tag, queryJSON: queryJSON)
    }

    /// A new identity (`auth`, `unauth`, or a refreshed token): every listen is checked again
    /// with it and moved to it without a pause (no event is missed), or revoked with `c` if it
    /// may no longer read.
    private func setIdentity(_ new: Identity, now: Double) async {
        let (changed, listens, namespace) = state.withLock { state -> (Bool, [String: Listen], Namespace) in
            guard new != state.identity else { return (false, [:], state.namespace) }
            state.identity = new
            return (true, state.listens, state.namespace)
        }
        guard changed else { return }
        for (key, listen) in listens {
            if await namespace.reidentify(listen.id, as: new, now: now) { continue }
            _ = removeListen(key)
            let sink = makeSink(listen.path, tag: listen.tag, queryJSON: listen.queryJSON)
            _ = sink.deliver(.cancel(reason: "Permission denied"))
        }
    }

    /// The client is gone: listens end, and the onDisconnect operations run in order, decided for
    /// the identity the connection has when it closes (not the one it had when it registered them:
    /// after `unauth` or a change of user, they run as the new caller).
    func disconnected() async {
        let (listens, operations, identity, namespace) = state.withLock { state in
            let taken = (state.listens, state.onDisconnect, state.identity, state.namespace)
            state.listens = [:]
            state.listenQueryBytes = 0
            state.onDisconnect = []
            state.onDisconnectBytes = 0
            return taken
        }
        totals.listenQueries.release(listens.values.reduce(0) { $0 + $1.queryBytes })
        for listen in listens.values { namespace.unlisten(listen.id) }
        let now = Date().millisecondsSince1970
        let pipeline = RequestPipeline(log: log)
        for entry in operations {
            let record = RequestRecord(transport: transport, method: "onDisconnect", namespace: namespace.name, path: entry.path.description, identity: identity)
            // A denial or an error is in the log; nobody is left to answer.
            let capture = DecisionCapture()
            _ = try? await pipeline.run(record, capture: capture, status: { _ in 0 }, failureStatus: { _ in 0 }) { _ in
                let namespace = try writable()
                return try await namespace.write(entry.operation, as: identity, now: now, capture: capture)
            }
            // Run (or refused): its message is let go.
            totals.onDisconnect.release(entry.bytes)
        }
    }

    // MARK: - Reading bodies

    /// The message's path (`p`), checked once: the session passes it on typed.
    private func path(_ message: WireMessage) throws -> DataPath {
        guard let p = message.string("p") else { throw WireFailure.malformed("\(message.action ?? "request") needs a string path \"p\"") }
        do { return try DataPath(validating: p) } catch { throw WireFailure.server(.invalidPath) }
    }

    private func value(_ message: WireMessage, _ key: String, at path: DataPath) throws -> DataInput {
        guard let raw = message.raw(key) else { throw WireFailure.malformed("\(message.action ?? "request") needs \"\(key)\"") }
        do {
            return try DataInputReader.read(bytes: raw, at: path)
        } catch {
            throw WireFailure.server(ServerError(.badRequest, "Invalid data: \(error.message)"))
        }
    }

    private func updateEntries(_ message: WireMessage, at path: DataPath) throws -> [(String, DataInput)] {
        guard let raw = message.raw("d") else { throw WireFailure.malformed("\(message.action ?? "request") needs \"d\"") }
        do { return try UpdateBody.parse(raw, at: path.keys, maxPaths: limits.maxUpdatePaths) } catch { throw WireFailure.server(error) }
    }

    private static func tag(_ message: WireMessage) -> Int? {
        if case .number(let t, _)? = message.body["t"]?.kind, t == t.rounded(), abs(t) < 1e15 { return Int(t) }
        return nil
    }

    private static func listenKey(_ path: DataPath, tag: Int?) -> String {
        path.description + "#" + (tag.map(String.init) ?? "default")
    }

    /// An auth value as JSON.
    static func json(_ value: AuthValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return JSONText.number(d)
        case .string(let s): return JSONText.quote(s)
        case .array(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONText.quote($0) + ":" + json(members[$0]!) }.joined(separator: ",") + "}"
        }
    }
}
