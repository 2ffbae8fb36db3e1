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
    /// The bytes of request bodies held at once, across connections (``ServerLimits/maxBodyBytesInFlight``).
    let bodies: BodyBudget
    /// The bytes waiting for every slow reader together (``ServerLimits/maxQueuedBytesTotal``).
    let pending: QueueBudget.Shared
    /// The host names the server answers (the operator's: tools may be the administrator there).
    let hosts: HostPolicy

    init(
        registry: NamespaceRegistry, log: RequestLog, limits: ServerLimits, bodies: BodyBudget? = nil, pending: QueueBudget.Shared? = nil,
        hosts: HostPolicy = HostPolicy()
    ) {
        self.pending = pending ?? QueueBudget.Shared(total: limits.maxQueuedBytesTotal)
        self.hosts = hosts
        self.registry = registry
        self.log = log
        self.limits = limits
        self.bodies = bodies ?? BodyBudget(total: max(limits.maxBodyBytesInFlight, limits.maxBodyBytes))
    }

    /// Answers one request. Its scope (origin, body reservation) is made here, from the request
    /// itself, and given back when the answer is made.
    func respond(to request: Request, context: Context) async throws -> Response {
        let scope = RequestScope(request, bodies: bodies, hosts: hosts)
        defer {
            if scope.lease.end() >= MallocArenas.largeRequestBytes { MallocArenas.giveBack() }
        }
        let record = RequestRecord(transport: .rest, method: request.method.rawValue, namespace: registry.defaultName, path: "/")
        let channel = context.channel
        // The page and its endpoints are not logged: it polls them, and would fill the ring.
        let inspection = Self.isInspection(request.head.path ?? "/")
        do {
            return try await RequestPipeline(log: log).run(
                record, capture: scope.capture, logged: { _ in !inspection }, status: { $0.status.code }, failureStatus: { $0.httpStatus }
            ) { record in
                try await handle(request, scope: scope, record: &record, channel: channel)
            }
        } catch let error as ServerError {
            return Self.errorResponse(error)
        }
    }

    // MARK: - Routing

    func handle(_ request: Request, scope: RequestScope, record: inout RequestRecord, channel: any Channel) async throws(ServerError) -> Response {
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
        let route = Route.of(target)
        if case .page(let segments) = route {
            if let asset = try Self.pageAsset(segments, method: method, defaultNamespace: registry.defaultName) { return asset }
            // Logged with the path asked for, not `/`.
            record.path = "/" + segments.joined(separator: "/")
            throw ServerError(.notFound, "Not found: REST requests end in .json, such as /users/alice.json")
        }
        let inspecting = if case .inspect = route { true } else { false }
        let options = try RESTOptions(inspecting ? Self.restParameters(target.parameters) : target.parameters)
        var credentials = options.credentials
        if credentials.token == nil, let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { credentials.token = String(parts[1]) }
        }
        let identity = try credentials.identity(origin: scope.origin, maxTokenBytes: limits.maxTokenBytes)
        record.identify(identity)
        // A write (of data, a priority or rules) makes its namespace; a read never does.
        let name: NamespaceName
        if let given = options.namespaceName { name = given } else { name = try registry.name(nil) }
        let writes = method == .put || method == .post || method == .patch || method == .delete
        let namespace = writes ? try registry.namespace(forWriting: name) : registry.namespace(forReading: name)
        record.namespace = namespace.name
        record.path = "/" + target.segments.joined(separator: "/")

        let segments: [String]
        switch route {
        case .rules:
            return try await rulesEndpoint(request, scope: scope, method: method, options: options, identity: identity, namespace: namespace)
        case .inspect:
            return try await inspectEndpoint(target, request: request, scope: scope, method: method, identity: identity, namespace: namespace, channel: channel)
        case .priority(let path):
            let location = try Self.validPath(path[...])
            record.path = location.description + (location.isRoot ? ".priority" : "/.priority")
            return try await priorityEndpoint(request, scope: scope, method: method, path: location, options: options, identity: identity, namespace: namespace)
        case .notFound, .page, .webSocket, .longPoll:
            throw ServerError(.notFound, "Not found: \(record.path)")
        case .data(let path):
            segments = path
        }
        let path = try Self.validPath(segments[...])
        let now = Date().millisecondsSince1970
        switch method {
        case .get, .head:
            if request.headers[.accept]?.contains("text/event-stream") == true {
                record.transport = .stream
                record.method = "listen"
                return try await stream(path, options: options, identity: identity, namespace: namespace, now: now, channel: channel, capture: scope.capture)
            }
            return try await read(request, path: path, options: options, identity: identity, namespace: namespace, now: now, capture: scope.capture)
        case .put, .post, .patch, .delete:
            let response = try await write(request, scope: scope, method: method, path: path, options: options, identity: identity, namespace: namespace, now: now)
            if response.status == .preconditionFailed {
                // Only a stale `if-match` is answered 412: a retry, not an error.
                record.verdict = .stale
                record.reason = "conditional write retry: the data changed since the client read it (ETag does not match)"
            }
            return response
        default:
            throw ServerError(.methodNotAllowed, "Method \(method.rawValue) is not supported: use GET, PUT, POST, PATCH or DELETE.")
        }
    }

    /// The path a request's decoded segments name, each a valid key and together a valid path,
    /// checked once here: the door passes it on typed.
    static func validPath(_ segments: ArraySlice<String>) throws(ServerError) -> DataPath {
        let keys = Array(segments)
        for key in keys {
            // (A decoded `%2F` is a "/" in a key, which this refuses too.)
            do { try DataPath.validate(key: key, at: keys) } catch { throw .invalidPath }
        }
        do {
            try DataPath.checkDepth(keys)
            return DataPath(keys: keys)
        } catch {
            // The production text, with what is wrong (a path too deep, say) as the explanation.
            var invalid = ServerError.invalidPath
            invalid.explanation = error.message.count > 300 ? String(error.message.prefix(300)) + "…" : error.message
            throw invalid
        }
    }
}
