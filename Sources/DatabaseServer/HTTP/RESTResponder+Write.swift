import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Writes: `PUT`, `POST` (push), `PATCH` (multi-path update), `DELETE`, `if-match` compare-and-set, and priorities.
extension RESTResponder {
    func write(
        _ request: Request, scope: RequestScope, method: HTTPRequest.Method, path: DataPath, options: RESTOptions, identity: Identity,
        namespace: Namespace, now: Double
    ) async throws(ServerError) -> Response {
        let location = path.description
        let ifMatch = request.headers[Self.ifMatch]
        if ifMatch != nil, method == .post || method == .patch {
            throw ServerError(.badRequest, "if-match is supported on PUT and DELETE only")
        }
        let operation: DatabaseOperation
        var echo: String?
        var pushed: String?
        switch method {
        case .delete:
            operation = .delete(path: location)
            echo = "null"
        case .put:
            operation = .set(path: location, value: try await Self.body(request, at: path, limit: limits.maxBodyBytes, lease: scope.lease))
        case .post:
            let value = try await Self.body(request, at: path, limit: limits.maxBodyBytes, lease: scope.lease)
            let key = registry.nextPushKey(now: now)
            pushed = key
            operation = .push(path: location, value: value, key: key)
            echo = #"{"name":"# + JSONText.quote(key) + "}"
        default:
            let bytes = try await Self.bodyBytes(request, limit: limits.maxBodyBytes, lease: scope.lease)
            operation = .update(path: location, values: try UpdateBody.parse(bytes, at: path.keys, maxPaths: limits.maxUpdatePaths))
            echo = String(decoding: bytes, as: UTF8.self)
        }
        let condition = ifMatch.map { Namespace.Condition.ifMatch($0) }
        let outcome = try await namespace.writeDurably(operation, as: identity, now: now, condition: condition, capture: scope.capture)
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
            let written = pushed.map { path.appending($0) } ?? path
            var headers = HTTPFields()
            if request.headers[Self.firebaseETag] == "true" || ifMatch != nil {
                headers[.eTag] = NodeHash.etag(of: DataNode.node(after.root, at: written))
            }
            if options.print == .silent { return Self.silent(headers) }
            var body = echo ?? {
                let node = DataNode.node(after.root, at: path)
                let withPriority = node?.priority != nil
                return node?.exportJSON(includePriority: withPriority, arrays: !withPriority) ?? "null"
            }()
            if options.print == .pretty { body = PrettyJSON.format(body) }
            return Self.json(body, headers: headers)
        }
    }

    /// `PUT /path/.priority.json`: sets the priority of the node at `path`, keeping its value.
    func priorityEndpoint(
        _ request: Request, scope: RequestScope, method: HTTPRequest.Method, path: DataPath, options: RESTOptions, identity: Identity, namespace: Namespace
    ) async throws(ServerError) -> Response {
        let now = Date().millisecondsSince1970
        if method == .get {
            let node = try await namespace.read(path, as: identity, now: now, capture: scope.capture).node
            return Self.json(node?.priority.map { DataNode(leaf: $0).exportJSON(includePriority: false) } ?? "null")
        }
        guard method == .put else { throw ServerError(.methodNotAllowed, "Use GET or PUT on .priority") }
        let priority = try await Self.body(request, at: path, limit: limits.maxBodyBytes, lease: scope.lease)
        // Read and written in one step by the namespace: no write falls in between.
        if case .committed(_, let durability) = try await namespace.setPriority(at: path, to: priority, as: identity, now: now, capture: scope.capture) {
            try await durability.wait()
        }
        return options.print == .silent ? Self.silent(HTTPFields()) : Self.json(String(describing: priority))
    }
}
