import HTTPTypes
import Hummingbird

/// Where a request comes from, as far as a browser says: its `Origin` header and its
/// `Sec-Fetch-Site` header, whether it carries any header only browsers send (`Origin`,
/// `Referer`, `Sec-Fetch-*`), and the `Host` it was sent to. It decides whether the request
/// may use the administrator's credentials (`owner`):
/// - at a loopback `Host` (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`), a browser page
///   may do so only when it is on this machine (a loopback origin: `http(s)://localhost[:port]`,
///   `*.localhost`, `127.x.x.x`, `[::1]`) or is the server's own page (its origin is the
///   server's own address); a request without `Origin` and not marked
///   `Sec-Fetch-Site: cross-site` did not come from another site's page (curl, the SDKs, a
///   same-origin GET) and may;
/// - at a host name the operator allowed (`rules serve --allow-host NAME`, such as a
///   container's service name), only a request that carries no browser header at all (a tool:
///   firebase-admin, curl, the SDKs in emulator mode) may; never a page;
/// - at any other `Host` (`0.0.0.0`, a LAN address), nothing may: a page reaching the server
///   there may send neither `Origin`, `Referer` nor `Sec-Fetch-Site`.
///
/// Each door builds one from the request it receives and passes it on explicitly (in a
/// ``RequestScope``, or to the ``WireSession`` of a WebSocket or long-polling connection);
/// ``Credentials/identity(origin:maxTokenBytes:)`` refuses `owner` when it says no.
package struct RequestOrigin: Sendable, Hashable {
    /// The `Origin` header (`null` for opaque origins such as `file:` pages), if any.
    package var origin: String?
    /// The `Sec-Fetch-Site` header (`same-origin`, `same-site`, `cross-site`, `none`), if any.
    package var fetchSite: String?
    /// The `Host` (or authority) the request was sent to, if any.
    package var authority: String?
    /// Whether the request carries a header that browsers send and tools do not: `Origin`,
    /// `Referer` or any `Sec-Fetch-*`.
    package var fromBrowser: Bool
    /// The host names the operator allowed (``HostPolicy/allowedNames``): at one of them a tool
    /// (``fromBrowser`` false) may be the administrator.
    package var toolHosts: Set<String>

    /// A request's browser context. `fromBrowser` is, unless given, whether `origin` or
    /// `fetchSite` is.
    package init(origin: String? = nil, fetchSite: String? = nil, authority: String? = nil, fromBrowser: Bool? = nil, toolHosts: Set<String> = []) {
        self.origin = origin
        self.fetchSite = fetchSite
        self.authority = authority
        self.fromBrowser = fromBrowser ?? (origin != nil || fetchSite != nil)
        self.toolHosts = toolHosts
    }

    /// The browser context of a request with these headers, sent to `authority`, on a server
    /// that answers `hosts`.
    init(headers: HTTPFields, authority: String?, hosts: HostPolicy) {
        let fromBrowser = headers[.origin] != nil || headers[.referer] != nil
            || headers.contains { $0.name.canonicalName.hasPrefix("sec-fetch-") }
        self.init(
            origin: headers[.origin], fetchSite: headers[Self.secFetchSite], authority: authority, fromBrowser: fromBrowser,
            toolHosts: hosts.allowedNames)
    }

    /// The `Sec-Fetch-Site` header's name.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// Nothing is known of where the request comes from: treated as another site's page (the
    /// administrator is refused).
    package static let unknown = RequestOrigin(fetchSite: "cross-site")

    /// A request made on this machine without a browser (the server's own callers, tests).
    package static let local = RequestOrigin()

    /// The browser context of an HTTP request: its `Origin`, `Sec-Fetch-*`, `Referer` and
    /// `Host`, on a server that answers `hosts`.
    init(_ request: Request, hosts: HostPolicy) {
        self.init(headers: request.headers, authority: request.head.authority, hosts: hosts)
    }

    /// Whether the administrator's credentials are accepted from this request.
    package var allowsAdministrator: Bool {
        if let authority {
            guard let host = HostPolicy.host(ofAuthority: authority) else { return false }
            if !HostPolicy.isLoopbackHost(host) {
                // A name the operator allowed (a container's service name): tools only.
                return toolHosts.contains(host) && !fromBrowser && !HostPolicy.isIPLiteral(host)
            }
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
        if let authority, let host = HostPolicy.host(ofAuthority: authority), toolHosts.contains(host), fromBrowser {
            let shown = String(authority.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) }.prefix(100))
            return ServerError(
                .permissionDenied,
                "Administrator credentials (owner) are accepted at \(shown) only from tools (requests without Origin, Referer or Sec-Fetch-* headers), never from a browser page; a page on this machine may use owner at http://localhost:PORT.",
                explanation: "owner refused: a browser request (Origin, Referer or Sec-Fetch-* header) sent to \(shown), a name allowed for tools only")
        }
        if let authority, origin == nil || Self.isLoopbackOrigin(origin!) || isSameOrigin(origin!),
           HostPolicy.host(ofAuthority: authority).map(HostPolicy.isLoopbackHost) != true {
            let shown = String(authority.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) }.prefix(100))
            return ServerError(
                .permissionDenied,
                "Administrator credentials (owner) are accepted only at a loopback address of this machine (http://localhost:PORT, http://127.0.0.1:PORT, http://[::1]:PORT), or from tools at a name given with rules serve --allow-host NAME; this request was sent to \(shown).",
                explanation: "owner refused: the request was sent to \(shown), not a loopback name or address")
        }
        let from = origin.map { "Origin \($0)" } ?? "a cross-site page (Sec-Fetch-Site: cross-site)"
        return ServerError(
            .permissionDenied,
            "Administrator credentials (owner) are accepted from a browser only from a page on this machine (http://localhost:PORT, http://127.0.0.1:PORT); this request comes from \(from).",
            explanation: "owner refused: the request comes from \(from), not a loopback origin")
    }
}
