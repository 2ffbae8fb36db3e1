import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The inspection endpoints under `/.inspect/` and the page at `/` (see docs/server.md, "The
/// page"). They are not logged in the request log, and every endpoint that shows data or
/// requests needs the administrator; the page itself is static and says nothing about the data.
extension RESTResponder {
    /// Query parameters of the inspection endpoints that are not REST parameters.
    static let inspectParameters: Set<String> = ["after", "limit", "path"]

    /// The parameters left for ``RESTOptions`` (namespace and credentials) on an inspection endpoint.
    static func restParameters(_ parameters: [(name: String, value: String)]) -> [(name: String, value: String)] {
        parameters.filter { !inspectParameters.contains($0.name) }
    }

    /// Whether a request target is the page or one of its endpoints (not logged).
    static func isInspection(_ rawTarget: String) -> Bool {
        // Compared as bytes: this runs for every request.
        let utf8 = rawTarget.utf8
        let path = utf8[..<(utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex)]
        func equals(_ text: StaticString) -> Bool {
            text.withUTF8Buffer { path.elementsEqual($0) }
        }
        return path.isEmpty || equals("/") || equals("/favicon.ico") || equals("/.inspect")
            || path.starts(with: "/.inspect/".utf8)
    }

    // MARK: - The page

    /// The page (`/`) and its script and style sheet; nil for any other target that is not a
    /// REST path.
    static func pageAsset(_ segments: [String], method: HTTPRequest.Method, defaultNamespace: String) throws(ServerError) -> Response? {
        let body: String, type: String
        switch segments {
        case []:
            body = InspectorPage.html(defaultNamespace: defaultNamespace)
            type = "text/html; charset=utf-8"
        case [".inspect", "page.js"]:
            body = InspectorPage.script
            type = "text/javascript; charset=utf-8"
        case [".inspect", "page.css"]:
            body = InspectorPage.style
            type = "text/css; charset=utf-8"
        case ["favicon.ico"]:
            // What browsers ask for with every page load: a small icon, not a 404 in the log.
            body = favicon
            type = "image/svg+xml"
        default:
            return nil
        }
        guard method == .get || method == .head else {
            throw ServerError(.methodNotAllowed, "Use GET on the page; REST requests end in .json, such as /users/alice.json")
        }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        // Everything the page loads comes from this server; no inline script or style.
        headers[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: method == .head ? ResponseBody() : bodyText(body))
    }

    /// The icon served at `/favicon.ico` (an SVG: a shield, the rules' colour).
    static let favicon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 1 2 3.5V8c0 3.2 2.6 5.9 6 7 3.4-1.1 6-3.8 6-7V3.5Z" fill="#f5a623"/></svg>"##

    // MARK: - Endpoints

    func inspectEndpoint(
        _ target: RequestTarget, request: Request, scope: RequestScope, method: HTTPRequest.Method, identity: Identity, namespace: Namespace,
        channel: any Channel
    ) async throws(ServerError) -> Response {
        guard method == .get || method == .head else { throw ServerError(.methodNotAllowed, "Use GET on /.inspect endpoints") }
        // The inspector's data (the rules' text, coverage, requests) is for this machine's pages
        // and clients only, as the administrator is.
        guard scope.origin.allowsAdministrator else {
            throw ServerError(
                .permissionDenied, "Permission denied",
                explanation: "/.inspect endpoints answer only pages and clients on this machine (a loopback Host, and no other site's Origin)")
        }
        let segments = target.segments
        let name = "/" + segments.joined(separator: "/") + ".json"
        switch segments {
        case [".inspect", "coverage"]:
            guard let coverage = registry.coverage else {
                throw ServerError(.notFound, "Coverage is off: the server was started with --no-coverage.")
            }
            return Self.json(coverage.json(namespace: namespace.name, rules: namespace.rules.loaded))
        case [".inspect", "databases"]:
            try Self.requireAdmin(identity, name)
            // Each namespace with the id of its latest logged request (0: none), so that the
            // page can open where things happen.
            var latest: [String: Int] = [:]
            for record in log.records(after: 0) { latest[record.namespace] = record.id }
            let names = registry.all.map { #"{"name":"# + JSONText.quote($0.name) + #","lastRequest":\#(latest[$0.name] ?? 0)}"# }
            return Self.json("[" + names.joined(separator: ",") + "]")
        case [".inspect", "requests"]:
            try Self.requireAdmin(identity, name)
            let after = try Self.count(target.parameter("after"), "after") ?? 0
            let limit = try Self.count(target.parameter("limit"), "limit") ?? log.capacity
            return Self.json(RequestJSON.list(log.records(after: after, limit: limit), total: log.total, capacity: log.capacity))
        case let s where s.count == 3 && s[0] == ".inspect" && s[1] == "requests":
            try Self.requireAdmin(identity, name)
            guard let id = Int(s[2]), let record = log.record(id: id) else {
                throw ServerError(.notFound, "Request \(s[2]) is not in the request log (it keeps the last \(log.capacity)).")
            }
            return Self.json(RequestJSON.detail(record))
        case [".inspect", "rules"]:
            try Self.requireAdmin(identity, name)
            var file: String?
            if case .file(let path) = registry.defaultRules.origin { file = path }
            return Self.json(RulesReport.json(namespace: namespace, coverage: registry.coverage, rulesFile: file))
        case [".inspect", "data"]:
            try Self.requireAdmin(identity, name)
            let path = try Self.validPath(ArraySlice(Namespace.split(target.parameter("path") ?? "/")))
            let now = Date().millisecondsSince1970
            if request.headers[.accept]?.contains("text/event-stream") == true {
                return try await stream(path, options: try RESTOptions([]), identity: .admin, namespace: namespace, now: now, channel: channel, export: true)
            }
            let node = try await namespace.read(path, as: .admin, now: now).node
            return Self.json(node?.exportJSON(includePriority: true, arrays: false) ?? "null")
        default:
            throw ServerError(.notFound, "Not found: \(name)")
        }
    }

    private static func requireAdmin(_ identity: Identity, _ endpoint: String) throws(ServerError) {
        guard identity == .admin else {
            throw ServerError(.permissionDenied, "Permission denied", explanation: "\(endpoint) needs the administrator (Authorization: Bearer owner)")
        }
    }

    private static func count(_ text: String?, _ name: String) throws(ServerError) -> Int? {
        guard let text else { return nil }
        guard let n = Int(text), n >= 0 else { throw ServerError(.badRequest, "\(name) must be a whole number of 0 or more; got \(text)") }
        return n
    }
}
