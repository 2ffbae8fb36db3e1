import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The REST door: `GET/PUT/POST/PATCH/DELETE /path.json`, streaming reads, and the emulator's
/// endpoints. It parses each request into an operation on a ``Namespace``, and renders what
/// comes back; it decides nothing itself.
struct RESTResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    let registry: NamespaceRegistry
    let log: RequestLog
    let limits: ServerLimits

    func respond(to request: Request, context: Context) async throws -> Response {
        let record = RequestRecord(
            transport: "rest", method: request.method.rawValue, namespace: registry.defaultName, path: "/", identity: "-",
            uid: nil, verdict: "allowed", status: 200, reason: nil, milliseconds: 0, time: Date())
        let channel = context.channel
        // The page and its endpoints are not logged: it polls them, and would fill the ring.
        let inspection = Self.isInspection(request.head.path ?? "/")
        do {
            return try await RequestPipeline(log: log).run(
                record, logged: { _ in !inspection }, status: { $0.status.code }, failureStatus: { $0.httpStatus }
            ) { record in
                try await handle(request, record: &record, channel: channel)
            }
        } catch let error as ServerError {
            return Self.errorResponse(error)
        }
    }

    // MARK: - Routing

    private func handle(_ request: Request, record: inout RequestRecord, channel: any Channel) async throws(ServerError) -> Response {
        var method = request.method
        if method == .options { return Self.preflight() }
        if method == .post, let override = request.headers[Self.methodOverride] {
            switch override.uppercased() {
            case "PUT": method = .put
            case "PATCH": method = .patch
            case "DELETE": method = .delete
            default: throw ServerError(.badRequest, "X-HTTP-Method-Override must be PUT, PATCH or DELETE; got \(override)")
            }
            record.method = "POST as \(method.rawValue)"
        }
        let target = try RequestTarget(request.head.path ?? "/")
        if !target.isJSON, let asset = try Self.pageAsset(target.segments, method: method, defaultNamespace: registry.defaultName) {
            return asset
        }
        guard target.isJSON else {
            // Logged with the path asked for, not `/`.
            record.path = "/" + target.segments.joined(separator: "/")
            throw ServerError(.notFound, "Not found: REST requests end in .json, such as /users/alice.json")
        }
        let inspecting = target.segments.first == ".inspect"
        let options = try RESTOptions(inspecting ? Self.restParameters(target.parameters) : target.parameters)
        var credentials = options.credentials
        if credentials.token == nil, let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { credentials.token = String(parts[1]) }
        }
        let identity = try credentials.identity()
        record.identity = identity.description
        record.uid = identity.uid
        // A write (of data, a priority or rules) makes its namespace; a read never does.
        let name: NamespaceName
        if let given = options.namespaceName { name = given } else { name = try registry.name(nil) }
        let writes: Set<HTTPRequest.Method> = [.put, .post, .patch, .delete]
        let namespace = writes.contains(method) ? try registry.namespace(forWriting: name) : registry.namespace(forReading: name)
        record.namespace = namespace.name
        record.path = "/" + target.segments.joined(separator: "/")

        // Emulator endpoints, routed before the path check (their segments start with a dot).
        switch target.segments.first {
        case ".settings":
            guard target.segments == [".settings", "rules"] else { throw ServerError(.notFound, "Not found: \(record.path)") }
            return try await rulesEndpoint(request, method: method, options: options, identity: identity, namespace: namespace)
        case ".inspect":
            return try await inspectEndpoint(target, request: request, method: method, identity: identity, namespace: namespace, channel: channel)
        default: break
        }
        if target.segments.last == ".priority" {
            let keys = try Self.validKeys(target.segments.dropLast())
            record.path = Namespace.path(keys) + "/.priority"
            return try await priorityEndpoint(request, method: method, keys: keys, options: options, identity: identity, namespace: namespace)
        }
        let keys = try Self.validKeys(target.segments[...])
        let now = Date().millisecondsSince1970
        switch method {
        case .get, .head:
            if request.headers[.accept]?.contains("text/event-stream") == true {
                record.transport = "stream"
                record.method = "listen"
                return try await stream(keys, options: options, identity: identity, namespace: namespace, now: now, channel: channel)
            }
            return try await read(request, keys: keys, options: options, identity: identity, namespace: namespace, now: now)
        case .put, .post, .patch, .delete:
            let response = try await write(request, method: method, keys: keys, options: options, identity: identity, namespace: namespace, now: now)
            if response.status == .preconditionFailed {
                // Only a stale `if-match` is answered 412: a retry, not an error.
                record.verdict = RequestRecord.staleVerdict
                record.reason = "conditional write retry: the data changed since the client read it (ETag does not match)"
            }
            return response
        default:
            throw ServerError(.methodNotAllowed, "Method \(method.rawValue) is not supported: use GET, PUT, POST, PATCH or DELETE.")
        }
    }

    static func validKeys(_ segments: ArraySlice<String>) throws(ServerError) -> [String] {
        for segment in segments {
            guard !segment.contains("/"), let path = try? DataPath(validating: segment), path.keys.count == 1 else {
                throw .invalidPath
            }
        }
        if segments.count > 0 {
            do {
                _ = try DataPath(validating: segments.joined(separator: "/"))
            } catch {
                // The production text, with what is wrong (a path too deep, say) as the explanation.
                var invalid = ServerError.invalidPath
                invalid.explanation = error.message.count > 300 ? String(error.message.prefix(300)) + "…" : error.message
                throw invalid
            }
        }
        return Array(segments)
    }

    // MARK: - Reads

    private func read(_ request: Request, keys: [String], options: RESTOptions, identity: Identity, namespace: Namespace, now: Double) async throws(ServerError) -> Response {
        var query = options.query
        if options.shallow {
            // The emulator tools probe namespaces with shallow=true&limitToFirst=1; any other
            // query is refused with shallow.
            let probe = query.order == nil && query.limitToFirst == 1 && query.limitToLast == nil && query.startAt == nil
                && query.endAt == nil && query.equalTo == nil
            guard query.isPlain || probe else {
                throw ServerError(.badRequest, "shallow cannot be combined with orderBy, startAt, endAt, equalTo, limitToFirst or limitToLast")
            }
            query = Query()
        }
        let (database, node) = try await namespace.read(keys, query: query, as: identity, now: now)
        var body: String
        if options.shallow {
            if let node, !node.isLeaf {
                body = "{" + node.keys.map { DataText.jsonQuoted($0) + ":true" }.joined(separator: ",") + "}"
            } else {
                body = node?.exportJSON(includePriority: false) ?? "null"
            }
        } else if let node {
            body = node.exportJSON(includePriority: options.export, arrays: !options.export)
        } else {
            body = query.filters && DataNode.node(database.root, at: DataPath(keys: keys)) != nil ? "{}" : "null"
        }
        var headers = HTTPFields()
        let conditional = request.headers[Self.ifNoneMatch]
        if query.isPlain, !options.shallow, conditional != nil || request.headers[Self.firebaseETag] == "true" {
            let etag = NodeHash.etag(of: node)
            if conditional == etag { return Response(status: .notModified, headers: Self.commonHeaders(etag: etag)) }
            headers[.eTag] = etag
        }
        if let download = options.download {
            headers[.contentDisposition] = "attachment; filename=\"\(download.replacingOccurrences(of: "\"", with: ""))\""
        }
        if options.print == .pretty { body = PrettyJSON.format(body) }
        if options.print == .silent { return Self.silent(headers) }
        return Self.json(body, headers: headers)
    }

    // MARK: - Writes

    private func write(
        _ request: Request, method: HTTPRequest.Method, keys: [String], options: RESTOptions, identity: Identity,
        namespace: Namespace, now: Double
    ) async throws(ServerError) -> Response {
        let path = Namespace.path(keys)
        let ifMatch = request.headers[Self.ifMatch]
        if ifMatch != nil, method == .post || method == .patch {
            throw ServerError(.badRequest, "if-match is supported on PUT and DELETE only")
        }
        let operation: DatabaseOperation
        var echo: String?
        var pushed: String?
        switch method {
        case .delete:
            operation = .delete(path: path)
            echo = "null"
        case .put:
            operation = .set(path: path, value: try await Self.body(request, at: keys, limit: limits.maxBodyBytes))
        case .post:
            let value = try await Self.body(request, at: keys, limit: limits.maxBodyBytes)
            let key = registry.nextPushKey(now: now)
            pushed = key
            operation = .push(path: path, value: value, key: key)
            echo = #"{"name":"# + DataText.jsonQuoted(key) + "}"
        default:
            let bytes = try await Self.bodyBytes(request, limit: limits.maxBodyBytes)
            operation = .update(path: path, values: try UpdateBody.parse(bytes, at: keys, maxPaths: limits.maxUpdatePaths))
            echo = String(decoding: bytes, as: UTF8.self)
        }
        let condition = ifMatch.map { Namespace.Condition.ifMatch($0) }
        let outcome = try await namespace.writeDurably(operation, as: identity, now: now, condition: condition)
        switch outcome {
        case .stale(let current, let etag):
            // The 412 shows the current value: the namespace compared hashes only after the
            // caller's `.read` allowed it.
            var headers = Self.commonHeaders(etag: etag)
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(
                status: .preconditionFailed, headers: headers,
                body: Self.bodyText(current?.exportJSON(includePriority: false, arrays: true) ?? "null"))
        case .committed(let after, _):
            let written = pushed.map { keys + [$0] } ?? keys
            var headers = HTTPFields()
            if request.headers[Self.firebaseETag] == "true" || ifMatch != nil {
                headers[.eTag] = NodeHash.etag(of: DataNode.node(after.root, at: DataPath(keys: written)))
            }
            if options.print == .silent { return Self.silent(headers) }
            var body = echo ?? {
                let node = DataNode.node(after.root, at: DataPath(keys: keys))
                let withPriority = node?.priority != nil
                return node?.exportJSON(includePriority: withPriority, arrays: !withPriority) ?? "null"
            }()
            if options.print == .pretty { body = PrettyJSON.format(body) }
            return Self.json(body, headers: headers)
        }
    }

    /// `PUT /path/.priority.json`: sets the priority of the node at `path`, keeping its value.
    private func priorityEndpoint(
        _ request: Request, method: HTTPRequest.Method, keys: [String], options: RESTOptions, identity: Identity, namespace: Namespace
    ) async throws(ServerError) -> Response {
        let now = Date().millisecondsSince1970
        if method == .get {
            let node = try await namespace.read(keys, as: identity, now: now).node
            return Self.json(node?.priority.map { DataNode(leaf: $0).exportJSON(includePriority: false) } ?? "null")
        }
        guard method == .put else { throw ServerError(.methodNotAllowed, "Use GET or PUT on .priority") }
        let priority = try await Self.body(request, at: keys, limit: limits.maxBodyBytes)
        // Read and written in one step by the namespace: no write falls in between.
        if case .committed(_, let durability) = try await namespace.setPriority(at: keys, to: priority, as: identity, now: now) {
            try await durability.wait()
        }
        return options.print == .silent ? Self.silent(HTTPFields()) : Self.json(String(describing: priority))
    }

    // MARK: - Streaming

    /// A streaming read: the location's value, then its changes, as server-sent events. In the
    /// export format (`export`), values carry their priorities (the page's data view). A client
    /// that lets more than `maxQueuedBytes` wait is cut off: its connection is closed.
    func stream(
        _ keys: [String], options: RESTOptions, identity: Identity, namespace: Namespace, now: Double, channel: any Channel,
        export: Bool = false
    ) async throws(ServerError) -> Response {
        let name = namespace.name
        let (sink, events) = EventStreamSink.make(capacity: limits.maxQueuedEvents, bytes: limits.maxQueuedBytes) {
            // Cut off: the queued events are dropped with the connection.
            RulesServer.say("stream \(name)\(Namespace.path(keys)): closing the connection: the client reads too slowly")
            channel.close(promise: nil)
        }
        let (id, initial) = try await namespace.listen(keys, query: options.query, as: identity, sink: sink, now: now)
        let initialJSON = initial?.exportJSON(includePriority: export, arrays: !export) ?? "null"
        let keepAlive = limits.keepAliveSeconds
        let continuation = sink.continuation, budget = sink.budget
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.accessControlAllowOrigin] = "*"
        let body = ResponseBody { writer in
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(keepAlive))
                    if Task.isCancelled { break }
                    continuation.yield(.keepAlive)
                }
            }
            defer {
                ticker.cancel()
                namespace.unlisten(id)
                continuation.finish()
            }
            try await writer.write(ByteBuffer(string: Self.sse("put", #"{"path":"/","data":"# + initialJSON + "}")))
            for await item in events {
                if budget.overflowed { throw SlowClient() }
                if case .event(_, let bytes) = item { budget.release(bytes) }
                switch item {
                case .keepAlive:
                    try await writer.write(ByteBuffer(string: Self.sse("keep-alive", "null")))
                case .event(.put(let path, let value), _):
                    let data = export ? value.export : value.plain
                    try await writer.write(ByteBuffer(string: Self.sse("put", #"{"path":"# + DataText.jsonQuoted(path) + #","data":"# + data + "}")))
                case .event(.patch(let path, let value), _):
                    let data = export ? value.export : value.plain
                    try await writer.write(ByteBuffer(string: Self.sse("patch", #"{"path":"# + DataText.jsonQuoted(path) + #","data":"# + data + "}")))
                case .event(.cancel, _):
                    try await writer.write(ByteBuffer(string: Self.sse("cancel", "null")))
                case .event(.authRevoked, _):
                    try await writer.write(ByteBuffer(string: Self.sse("auth_revoked", "credential is no longer valid")))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Ends a streaming response whose client could not keep up (its connection is closed).
    struct SlowClient: Error {}

    static func sse(_ event: String, _ data: String) -> String {
        "event: \(event)\ndata: \(data)\n\n"
    }

    // MARK: - Emulator endpoints

    private func rulesEndpoint(
        _ request: Request, method: HTTPRequest.Method, options: RESTOptions, identity: Identity, namespace: Namespace
    ) async throws(ServerError) -> Response {
        guard identity == .admin else {
            throw ServerError(.permissionDenied, "Permission denied", explanation: "/.settings/rules.json needs the administrator (Authorization: Bearer owner)")
        }
        switch method {
        case .get, .head:
            let source = namespace.rules.source
            if options.strict {
                return Self.json(RulesSourceJSON.strict(source) ?? "null")
            }
            return Self.json(source)
        case .put:
            let bytes = try await Self.bodyBytes(request, limit: limits.maxBodyBytes)
            let source = String(decoding: bytes, as: UTF8.self)
            let ruleset: Ruleset
            do {
                ruleset = try Ruleset(source: source, path: NamespaceRules.uploadedPath(namespace: namespace.name))
            } catch {
                let file = error.file
                let lines = error.diagnostics.filter { $0.severity == .error }.map { d in
                    file.map { "\($0.location(of: d.range).line):\($0.location(of: d.range).column): \(d.message)" } ?? d.message
                }
                throw ServerError(.badRequest, lines.joined(separator: "\n"))
            }
            try await namespace.setRules(NamespaceRules(ruleset: ruleset, source: source, origin: .uploaded)).wait()
            return Self.json(#"{"status":"ok"}"#)
        default:
            throw ServerError(.methodNotAllowed, "Use GET or PUT on /.settings/rules.json")
        }
    }

    // MARK: - Bodies

    /// A request's body, at most `limit` bytes (else 413). Within the server, the body's bytes
    /// are first reserved from the total in flight (``BodyBudget``): its `Content-Length` at
    /// once, or each piece as it arrives; when the budget is spent the request gets 503 and the
    /// body is not buffered.
    static func bodyBytes(_ request: Request, limit: Int) async throws(ServerError) -> [UInt8] {
        let tooLarge = ServerError(.tooLarge, "Request body too large: the limit is \(limit) bytes.")
        guard let lease = BodyBudget.Lease.current else {
            do {
                let buffer = try await request.body.collect(upTo: limit)
                return Array(buffer.readableBytesView)
            } catch {
                throw tooLarge
            }
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }) {
            guard declared <= limit else { throw tooLarge }
            try lease.reserve(declared)
            do {
                let buffer = try await request.body.collect(upTo: declared)
                return Array(buffer.readableBytesView)
            } catch {
                throw tooLarge
            }
        }
        var bytes: [UInt8] = []
        do {
            for try await piece in request.body {
                guard bytes.count + piece.readableBytes <= limit else { throw tooLarge }
                try lease.reserve(piece.readableBytes)
                bytes.append(contentsOf: piece.readableBytesView)
            }
        } catch let error as ServerError {
            throw error
        } catch {
            throw tooLarge
        }
        return bytes
    }

    static func body(_ request: Request, at keys: [String], limit: Int) async throws(ServerError) -> DataInput {
        try parse(try await bodyBytes(request, limit: limit), at: keys)
    }

    static func parse(_ bytes: [UInt8], at keys: [String]) throws(ServerError) -> DataInput {
        if bytes.isEmpty { throw ServerError(.badRequest, "Error: No data supplied.") }
        do {
            return try DataInputReader.read(bytes: bytes, at: DataPath(keys: keys))
        } catch {
            if error.path == nil {
                throw ServerError(.badRequest, "Invalid data; couldn't parse JSON object, array, or value.", explanation: error.message)
            }
            throw ServerError(.badRequest, "Invalid data: \(error.message)")
        }
    }

    // MARK: - Responses

    static let methodOverride = HTTPField.Name("X-HTTP-Method-Override")!
    static let firebaseETag = HTTPField.Name("X-Firebase-ETag")!
    static let ifMatch = HTTPField.Name("if-match")!
    static let ifNoneMatch = HTTPField.Name("if-none-match")!
    static let explanationHeader = HTTPField.Name("X-Rules-Explanation")!

    static func commonHeaders(etag: String? = nil) -> HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.accessControlAllowOrigin] = "*"
        if let etag { headers[.eTag] = etag }
        return headers
    }

    static func bodyText(_ text: String) -> ResponseBody {
        ResponseBody(byteBuffer: ByteBuffer(string: text))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = HTTPFields()) -> Response {
        var headers = commonHeaders()
        headers[.contentType] = "application/json; charset=utf-8"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: bodyText(text))
    }

    static func json(_ text: String, headers: HTTPFields) -> Response { json(text, status: .ok, headers: headers) }

    static func silent(_ extra: HTTPFields) -> Response {
        var headers = commonHeaders()
        headers.append(contentsOf: extra)
        return Response(status: .noContent, headers: headers)
    }

    static func errorResponse(_ error: ServerError) -> Response {
        var headers = HTTPFields()
        if let explanation = error.explanation {
            headers[explanationHeader] = String(explanation.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) }.prefix(2000))
        }
        if error.kind == .unavailable || error.kind == .overloaded { headers[.retryAfter] = "1" }
        return json(PrettyJSON.format(#"{"error":"# + DataText.jsonQuoted(error.message) + "}"), status: HTTPResponse.Status(code: error.httpStatus), headers: headers)
    }

    static func preflight() -> Response {
        var headers = commonHeaders()
        headers[.accessControlAllowMethods] = "GET, PUT, POST, PATCH, DELETE, OPTIONS"
        headers[.accessControlAllowHeaders] = "Authorization, Content-Type, X-Firebase-ETag, if-match, if-none-match, X-HTTP-Method-Override"
        headers[.accessControlExposeHeaders] = "ETag, X-Rules-Explanation"
        return Response(status: .noContent, headers: headers)
    }
}
