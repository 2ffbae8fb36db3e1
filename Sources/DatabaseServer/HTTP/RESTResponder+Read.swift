import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Reads: `GET /path.json` with its query, shallow reads, ETags and `if-none-match`.
extension RESTResponder {
    func read(_ request: Request, path: DataPath, options: RESTOptions, identity: Identity, namespace: Namespace, now: Double, capture: DecisionCapture? = nil) async throws(ServerError) -> Response {
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
        let (database, node) = try await namespace.read(path, query: query, as: identity, now: now, capture: capture)
        var body: String
        if options.shallow {
            if let node, !node.isLeaf {
                body = "{" + node.keys.map { JSONText.quote($0) + ":true" }.joined(separator: ",") + "}"
            } else {
                body = node?.exportJSON(includePriority: false) ?? "null"
            }
        } else if let node {
            body = node.exportJSON(includePriority: options.export, arrays: !options.export)
        } else {
            body = query.filters && DataNode.node(database.root, at: path) != nil ? "{}" : "null"
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
}
