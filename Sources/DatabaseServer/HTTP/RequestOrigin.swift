import HTTPTypes
import Hummingbird

/// Where a request comes from, as far as a browser says: its `Origin` header and its
/// `Sec-Fetch-Site` header, and the `Host` it was sent to. It decides whether the request may
/// use the administrator's credentials (`owner`): a browser page may do so only when it is on
/// this machine (a loopback origin: `http(s)://localhost[:port]`, `*.localhost`, `127.x.x.x`,
/// `[::1]`) or is the server's own page (its origin is the server's own address). A request
/// without `Origin` and not marked `Sec-Fetch-Site: cross-site` did not come from another
/// site's page (curl, the SDKs, a same-origin GET) and may.
///
/// Each door builds one from the request it receives and passes it on explicitly (in a
/// ``RequestScope``, or to the ``WireSession`` of a WebSocket or long-polling connection);
/// ``Credentials/identity(origin:maxTokenBytes:)`` refuses `owner` when it says no. The
/// `Host` must name this machine by a loopback name or address as well: a page reaching the
/// server through `0.0.0.0` or another address of the machine may send neither `Origin` nor
/// `Sec-Fetch-Site`.
package struct RequestOrigin: Sendable, Hashable {
    /// The `Origin` header (`null` for opaque origins such as `file:` pages), if any.
    package var origin: String?
    /// The `Sec-Fetch-Site` header (`same-origin`, `same-site`, `cross-site`, `none`), if any.
    package var fetchSite: String?
    /// The `Host` (or authority) the request was sent to, if any.
    package var authority: String?

    /// A request's browser context.
    package init(origin: String? = nil, fetchSite: String? = nil, authority: String? = nil) {
        self.origin = origin
        self.fetchSite = fetchSite
        self.authority = authority
    }

    /// The `Sec-Fetch-Site` header's name.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// Nothing is known of where the request comes from: treated as another site's page (the
    /// administrator is refused).
    package static let unknown = RequestOrigin(fetchSite: "cross-site")

    /// A request made on this machine without a browser (the server's own callers, tests).
    package static let local = RequestOrigin()

    /// The browser context of an HTTP request: its `Origin`, `Sec-Fetch-Site` and `Host`.
    init(_ request: Request) {
        self.init(origin: request.headers[.origin], fetchSite: request.headers[Self.secFetchSite], authority: request.head.authority)
    }

    /// Who a request comes from, for budgets that one client must not take whole (long-polling
    /// sessions, connections): the page's origin when the request names it, else the kind of
    /// site (`cross-site` for a page that hides its origin), else a client that is not a page.
    package var client: String {
        if let origin { return "origin " + origin.lowercased() }
        if let fetchSite { return "site " + fetchSite.lowercased() }
        return "direct"
    }

    /// Whether the administrator's credentials are accepted from this request.
    package var allowsAdministrator: Bool {
        if let authority {
            guard let host = HostPolicy.host(ofAuthority: authority), HostPolicy.isLoopbackHost(host) else { return false }
        }
        if let origin {
            return Self.isLoopbackOrigin(origin) || isSameOrigin(origin)
        }
        return fetchSite?.lowercased() != "cross-site"
    }

    /// Whether `origin` is the server itself (the page it serves, opened at its address).
    func isSameOrigin(_ origin: String) -> Bool {
        guard let authority, let parsed = Self.parse(origin) else { return false }
        return parsed.authority == authority.lowercased()
    }

    /// Whether an `Origin` value names a page on this machine: scheme `http` or `https`, host a
    /// loopback name, 127.0.0.0/8 or `[::1]`.
    package static func isLoopbackOrigin(_ origin: String) -> Bool {
        guard let parsed = parse(origin), let host = HostPolicy.host(ofAuthority: parsed.authority) else { return false }
        return HostPolicy.isLoopbackHost(host)
    }

    /// The scheme and authority of a serialized origin (`scheme://authority`, nothing after).
    static func parse(_ origin: String) -> (scheme: String, authority: String)? {
        let lowered = origin.lowercased()
        for scheme in ["http", "https"] where lowered.hasPrefix(scheme + "://") {
            let authority = String(lowered.dropFirst(scheme.count + 3))
            guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
            return (scheme, authority)
        }
        return nil
    }

    /// The error a request gets when it uses `owner` from a page that may not.
    var administratorRefusal: ServerError {
        if let authority, origin == nil || Self.isLoopbackOrigin(origin!) || isSameOrigin(origin!),
           HostPolicy.host(ofAuthority: authority).map(HostPolicy.isLoopbackHost) != true {
            let shown = String(authority.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) }.prefix(100))
            return ServerError(
                .permissionDenied,
                "Administrator credentials (owner) are accepted only at a loopback address of this machine (http://localhost:PORT, http://127.0.0.1:PORT, http://[::1]:PORT); this request was sent to \(shown).",
                explanation: "owner refused: the request was sent to \(shown), not a loopback name or address")
        }
        let from = origin.map { "Origin \($0)" } ?? "a cross-site page (Sec-Fetch-Site: cross-site)"
        return ServerError(
            .permissionDenied,
            "Administrator credentials (owner) are accepted from a browser only from a page on this machine (http://localhost:PORT, http://127.0.0.1:PORT); this request comes from \(from).",
            explanation: "owner refused: the request comes from \(from), not a loopback origin")
    }
}
