import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The emulator's rules endpoint: `GET`/`PUT /.settings/rules.json`.
extension RESTResponder {
    func rulesEndpoint(
        _ request: Request, scope: RequestScope, method: HTTPRequest.Method, options: RESTOptions, identity: Identity, namespace: Namespace
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
            let bytes = try await Self.bodyBytes(request, limit: limits.maxBodyBytes, lease: scope.lease)
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
}
