import DatabaseRules
import HTTPTypes
import Hummingbird
import NIOCore

/// What every HTTP request passes before the REST door (``RESTResponder``) or the long-polling
/// door (``LongPollResponder``, `/.lp`) sees it, and what every answer gets after:
/// - the `Host` check against DNS rebinding (``HostPolicy``): a refused host gets 403;
/// - CORS headers on every answer, errors and streams included: the request's `Origin` named
///   (with `Vary: Origin`; `*` for requests without one), and `ETag` and
///   `X-Rules-Explanation` exposed to pages.
struct EdgeResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    let inner: RESTResponder
    /// The long-polling door (`/.lp`).
    let longPoll: LongPollResponder
    let hosts: HostPolicy

    func respond(to request: Request, context: Context) async throws -> Response {
        let origin = request.headers[.origin]
        var response: Response
        if hosts.allows(authority: request.head.authority) {
            // Each door makes the request's scope (origin, body reservation) from the request.
            if Route.isLongPoll(path: request.head.path ?? "/") {
                response = await longPoll.respond(to: request, peer: context.channel.remoteAddress)
            } else {
                response = try await inner.respond(to: request, context: context)
            }
        } else {
            response = Self.hostRefused(request.head.authority ?? "")
        }
        Self.addCORS(to: &response.headers, origin: origin)
        return response
    }

    /// The headers a page may read from an answer.
    static let exposedHeaders = "ETag, X-Rules-Explanation"

    /// Names the request's origin (or `*` without one) and exposes the headers pages need.
    /// Credentials here are tokens in a header or the query, never cookies, so no answer
    /// carries `Access-Control-Allow-Credentials`: whether `owner` is honoured is decided by
    /// the origin check, not by the browser's CORS rules.
    static func addCORS(to headers: inout HTTPFields, origin: String?) {
        if let origin {
            headers[.accessControlAllowOrigin] = origin
            headers[values: .vary] = (headers[values: .vary] + ["Origin"])
        } else {
            headers[.accessControlAllowOrigin] = "*"
        }
        headers[.accessControlExposeHeaders] = exposedHeaders
    }

    /// The 403 a request to a host name that is not allowed gets.
    static func hostRefused(_ authority: String) -> Response {
        var response = RESTResponder.json(hostRefusedJSON(authority), status: .forbidden)
        response.headers[.connection] = "close"
        return response
    }

    /// The body of that 403.
    static func hostRefusedJSON(_ authority: String) -> String {
        let shown = String(authority.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) }.prefix(200))
        let message = "Host \(shown) is not allowed: this server answers loopback names (localhost), IP addresses and the names given with rules serve --allow-host NAME (a guard against DNS rebinding)."
        return PrettyJSON.format(#"{"error":"# + JSONText.quote(message) + "}")
    }
}
