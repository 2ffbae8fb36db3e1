import DatabaseRules
import Foundation
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// One client of the SDKs' WebSocket protocol (`/.ws?v=5&ns=NAME`): it reads messages strictly
/// in order, turns each into an operation on its ``Namespace``, and answers through one
/// ordered outbox. onDisconnect operations run when the socket closes.
final class WireConnection: @unchecked Sendable {
    // State below is touched only by the task that reads the socket, except `closeReason`.
    private let namespace: Namespace
    private let log: RequestLog
    private let limits: ServerLimits
    private let host: String
    private let session: String
    private let explainDenials: Bool
    private var identity = Identity.user(.null)
    private var listens: [String: (id: Int, keys: [String], query: Query, tag: Int?, queryJSON: String?)] = [:]
    private var onDisconnect: [(operation: DatabaseOperation, keys: [String], identity: Identity)] = []
    private let closeReason = WireCloseReason()
    private var outbox: WireOutbox?
    /// When the write the current message made may be acknowledged (set by ``perform``).
    private var durability: Durability?

    /// The connection, closed when the client cannot keep up.
    private let channel: (any Channel)?

    init(namespace: Namespace, log: RequestLog, limits: ServerLimits, host: String, session: String, explainDenials: Bool, channel: (any Channel)? = nil) {
        self.channel = channel
        self.namespace = namespace
        self.log = log
        self.limits = limits
        self.host = host
        self.session = session
        self.explainDenials = explainDenials
    }

    /// Serves the connection until it closes.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let ns = namespace.name, session = session, reason = closeReason, limits = limits, channel = channel
        let (outbox, stream) = WireOutbox.make(capacity: limits.maxQueuedEvents, bytes: limits.maxQueuedBytes) {
            if reason.set("the client reads too slowly: more than \(limits.maxQueuedEvents) messages or \(limits.maxQueuedBytes) bytes wait for it") {
                RulesServer.say("ws \(ns) session \(session): closing the connection: the client reads too slowly")
            }
            // What waits is dropped with the connection (the writer may be blocked on it).
            channel?.close(promise: nil)
        }
        self.outbox = outbox
        let ts = Int(Date().timeIntervalSince1970 * 1000)
        outbox.send(#"{"t":"c","d":{"t":"h","d":{"ts":\#(ts),"v":"5","h":"# + DataText.jsonQuoted(host) + #","s":"# + DataText.jsonQuoted(session) + "}}}")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for await item in stream {
                        if outbox.budget.overflowed { break }  // cut off: what waits is dropped
                        let message = await outbox.text(of: item)
                        for frame in WireFrames.frames(for: message) { try await outbound.write(.text(frame)) }
                    }
                    if let why = reason.value {
                        try await outbound.close(WireFrames.closesAsInvalidData(why) ? .dataInconsistentWithMessage : .policyViolation, reason: String(why.prefix(120)))
                    }
                } catch {
                    // The client went away; the reader notices too.
                }
            }
            await read(inbound)
            disconnected()
            outbox.finish()
            await group.waitForAll()
        }
    }

    /// Closes the connection with a logged reason (protocol errors, overflow).
    private func close(_ why: String) {
        closeReason.set(why)
        RulesServer.say("ws \(namespace.name) session \(session): closing the connection: \(why)")
        outbox?.finish()
    }

    private func read(_ inbound: WebSocketInboundStream) async {
        var frames = WireFrames(maxMessageBytes: limits.maxWireMessageBytes)
        do {
            for try await message in inbound.messages(maxSize: limits.maxWireFrameBytes) {
                if closeReason.value != nil { break }
                guard case .text(let text) = message else { continue }  // binary frames are ignored, as the SDKs do
                switch frames.receive(text) {
                case .pending: continue
                case .tooLarge(let size):
                    close("message of \(size) bytes is over the \(limits.maxWireMessageBytes)-byte limit")
                    return
                case .message(let whole):
                    do {
                        try handle(WireMessage(whole))
                    } catch {
                        close("malformed message: \(error.reason)")
                        return
                    }
                }
            }
        } catch {
            close(WireFrames.unreadableReason(error))
        }
    }

    // MARK: - Messages

    private func handle(_ message: WireMessage) throws(WireMessage.Malformed) {
        if message.layer == "c" {
            if message.control == "p" { outbox?.send(#"{"t":"c","d":{"t":"o","d":{}}}"#) }
            return
        }
        guard let r = message.request, let action = message.action else { return }
        let started = ContinuousClock.now
        var record = RequestRecord(
            transport: "ws", method: action, namespace: namespace.name, path: message.string("p") ?? "-",
            identity: identity.description, uid: identity.uid, verdict: "allowed", status: 0, reason: nil, milliseconds: 0, time: Date())
        let now = Date().millisecondsSince1970
        let capture = DecisionCapture()
        do {
            durability = nil
            let data = try DecisionCapture.$current.withValue(capture) { try perform(action, message, r: r, now: now) }
            if let durability {
                outbox?.acknowledge(r, data: data, after: durability)
            } else {
                reply(r, "ok", data)
            }
        } catch let failure as WireFailure {
            switch failure {
            case .malformed(let why): throw WireMessage.Malformed(reason: why)
            case .status(let status, let text):
                record.verdict = "error"
                record.reason = text
                reply(r, status, DataText.jsonQuoted(text))
            case .server(let error):
                record.verdict = error.kind == .permissionDenied ? "denied" : "error"
                record.reason = error.explanation ?? error.message
                if error.kind == .permissionDenied, explainDenials, let why = error.explanation {
                    _ = outbox?.push("sd", #"{"msg":"# + DataText.jsonQuoted(why) + "}")
                }
                reply(r, Self.status(error), DataText.jsonQuoted(error.message))
            }
        } catch {
            throw WireMessage.Malformed(reason: "\(error)")
        }
        record.decision = capture.decision
        record.identity = identity.description
        record.uid = identity.uid
        let elapsed = ContinuousClock.now - started
        record.milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        log.record(record)
    }

    /// Why a request failed.
    private enum WireFailure: Error {
        case malformed(String)
        case status(String, String)
        case server(ServerError)
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
        outbox?.send(WireOutbox.reply(r, status, data))
    }

    /// Runs one action; returns the reply's `d` as JSON.
    private func perform(_ action: String, _ message: WireMessage, r: Int, now: Double) throws -> String {
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
                setIdentity(try credentials.identity(), now: now)
            } catch {
                throw WireFailure.status("invalid_token", error.message)
            }
            return #"{"auth":"# + (identity.auth.map(Self.json) ?? "null") + "}"
        case "unauth":
            setIdentity(.user(.null), now: now)
            return "{}"
        case "q":
            return try listen(message, now: now)
        case "n":
            let keys = try keys(message)
            let key = Self.listenKey(keys, tag: Self.tag(message))
            if let listen = listens.removeValue(forKey: key) { namespace.unlisten(listen.id) }
            return "{}"
        case "p":
            let keys = try keys(message)
            let value = try value(message, "d", at: keys)
            let condition = message.string("h").map { Namespace.Condition.ifHash($0) }
            if condition == nil, message.body["h"] != nil { throw WireFailure.malformed("h must be a string") }
            switch try serverCall({ () throws(ServerError) in try namespace.write(.set(path: Namespace.path(keys), value: value), as: identity, now: now, condition: condition) }) {
            case .committed(_, let durability):
                self.durability = durability
                return "{}"
            case .stale: throw WireFailure.status("datastale", "Transaction hash does not match")
            }
        case "m":
            let keys = try keys(message)
            let entries = try updateEntries(message, at: keys)
            if case .committed(_, let durability) = try serverCall({ () throws(ServerError) in
                try namespace.write(.update(path: Namespace.path(keys), values: entries), as: identity, now: now)
            }) {
                self.durability = durability
            }
            return "{}"
        case "o", "om":
            let keys = try keys(message)
            let operation: DatabaseOperation = action == "o"
                ? .set(path: Namespace.path(keys), value: try value(message, "d", at: keys))
                : .update(path: Namespace.path(keys), values: try updateEntries(message, at: keys))
            try serverCall({ () throws(ServerError) in try namespace.check(operation, as: identity, now: now) })
            onDisconnect.append((operation, keys, identity))
            return "{}"
        case "oc":
            let keys = try keys(message)
            onDisconnect.removeAll { $0.keys.starts(with: keys) }
            return "{}"
        case "g":
            let keys = try keys(message)
            let query = try WireQuery.parse(message.body["q"])
            let node = try serverCall({ () throws(ServerError) in try namespace.read(keys, query: query, as: identity, now: now, requireIndex: false).node })
            return node?.exportJSON(includePriority: true) ?? "null"
        default:
            throw WireFailure.malformed("unknown action \"\(action)\"")
        }
    }

    private func serverCall<T>(_ body: () throws(ServerError) -> T) throws -> T {
        do { return try body() } catch { throw WireFailure.server(error) }
    }

    // MARK: - Listens

    private func listen(_ message: WireMessage, now: Double) throws -> String {
        let keys = try keys(message)
        let queryNode = message.body["q"]
        let query: Query
        do { query = try WireQuery.parse(queryNode) } catch { throw WireFailure.server(error) }
        let tag = Self.tag(message)
        let key = Self.listenKey(keys, tag: tag)
        if let old = listens.removeValue(forKey: key) { namespace.unlisten(old.id) }
        let queryJSON = queryNode == nil ? nil : message.rawText("q")
        let sink = makeSink(keys, tag: tag, queryJSON: queryJSON)
        let (id, initial) = try serverCall({ () throws(ServerError) in
            try namespace.listen(keys, query: query, as: identity, sink: sink, now: now, requireIndex: false)
        })
        listens[key] = (id, keys, query, tag, queryJSON)
        // The value is pushed before the `ok`, unless the client's hash shows it has it already.
        let clientHash = message.string("h") ?? ""
        if clientHash.isEmpty || clientHash != NodeHash.of(initial) {
            _ = sink.deliver(.put(path: "/", value: RenderedValue(.node(initial))))
        }
        return namespace.hasIndex(for: query, at: keys) ? "{}" : #"{"w":["no_index"]}"#
    }

    private func makeSink(_ keys: [String], tag: Int?, queryJSON: String?) -> WireListenSink {
        WireListenSink(outbox: outbox!, path: Namespace.path(keys), tag: tag, queryJSON: queryJSON)
    }

    /// A new identity: every listen is checked again with it (and revoked with `c` if it may no
    /// longer read).
    private func setIdentity(_ new: Identity, now: Double) {
        guard new != identity else { return }
        identity = new
        for (key, listen) in listens {
            namespace.unlisten(listen.id)
            let sink = makeSink(listen.keys, tag: listen.tag, queryJSON: listen.queryJSON)
            do {
                let (id, _) = try namespace.listen(listen.keys, query: listen.query, as: identity, sink: sink, now: now, requireIndex: false)
                listens[key] = (id, listen.keys, listen.query, listen.tag, listen.queryJSON)
            } catch {
                listens.removeValue(forKey: key)
                _ = sink.deliver(.cancel(reason: error.message))
            }
        }
    }

    /// The socket closed: listens end, and the onDisconnect operations run in order.
    private func disconnected() {
        for listen in listens.values { namespace.unlisten(listen.id) }
        listens = [:]
        let now = Date().millisecondsSince1970
        for entry in onDisconnect {
            var record = RequestRecord(
                transport: "ws", method: "onDisconnect", namespace: namespace.name, path: Namespace.path(entry.keys),
                identity: entry.identity.description, uid: entry.identity.uid, verdict: "allowed", status: 0, reason: nil, milliseconds: 0, time: Date())
            let capture = DecisionCapture()
            let failure = DecisionCapture.$current.withValue(capture) { () -> ServerError? in
                do throws(ServerError) {
                    _ = try namespace.write(entry.operation, as: entry.identity, now: now)
                    return nil
                } catch {
                    return error
                }
            }
            if let error = failure {
                record.verdict = error.kind == .permissionDenied ? "denied" : "error"
                record.reason = error.explanation ?? error.message
            }
            record.decision = capture.decision
            log.record(record)
        }
        onDisconnect = []
    }

    // MARK: - Reading bodies

    private func keys(_ message: WireMessage) throws -> [String] {
        guard let p = message.string("p") else { throw WireFailure.malformed("\(message.action ?? "request") needs a string path \"p\"") }
        let segments = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if segments.isEmpty { return [] }
        guard (try? DataPath(validating: p)) != nil else { throw WireFailure.server(.invalidPath) }
        return segments
    }

    private func value(_ message: WireMessage, _ key: String, at keys: [String]) throws -> DataInput {
        guard let raw = message.raw(key) else { throw WireFailure.malformed("\(message.action ?? "request") needs \"\(key)\"") }
        do {
            return try DataInputReader.read(bytes: raw, at: DataPath(keys: keys))
        } catch {
            throw WireFailure.server(ServerError(.badRequest, "Invalid data: \(error.message)"))
        }
    }

    private func updateEntries(_ message: WireMessage, at keys: [String]) throws -> [(String, DataInput)] {
        guard let raw = message.raw("d") else { throw WireFailure.malformed("\(message.action ?? "request") needs \"d\"") }
        do { return try UpdateBody.parse(raw, at: keys, maxPaths: limits.maxUpdatePaths) } catch { throw WireFailure.server(error) }
    }

    private static func tag(_ message: WireMessage) -> Int? {
        if case .number(let t, _)? = message.body["t"]?.kind, t == t.rounded(), abs(t) < 1e15 { return Int(t) }
        return nil
    }

    private static func listenKey(_ keys: [String], tag: Int?) -> String {
        Namespace.path(keys) + "#" + (tag.map(String.init) ?? "default")
    }

    /// An auth value as JSON.
    static func json(_ value: AuthValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return DataText.number(d)
        case .string(let s): return DataText.jsonQuoted(s)
        case .array(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { DataText.jsonQuoted($0) + ":" + json(members[$0]!) }.joined(separator: ",") + "}"
        }
    }
}

/// Why a connection is being closed by the server (set once, from any thread).
final class WireCloseReason: Sendable {
    private let reason = Mutex<String?>(nil)

    /// Sets the reason unless one is set; returns whether this call set it.
    @discardableResult
    func set(_ why: String) -> Bool {
        reason.withLock { if $0 == nil { $0 = why; return true }; return false }
    }

    var value: String? { reason.withLock { $0 } }
}
