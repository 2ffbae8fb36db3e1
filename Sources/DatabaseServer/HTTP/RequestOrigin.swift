import HTTPTypes

/// Where a request comes from, as far as a browser says: its `Origin` header and its
/// `Sec-Fetch-Site` header, and the `Host` it was sent to. It decides whether the request may
/// use the administrator's credentials (`owner`): a browser page may do so only when it is on
/// this machine (a loopback origin: `http(s)://localhost[:port]`, `*.localhost`, `127.x.x.x`,
/// `[::1]`) or is the server's own page (its origin is the server's own address). A request
/// without `Origin` and not marked `Sec-Fetch-Site: cross-site` did not come from another
/// site's page (curl, the SDKs, a same-origin GET) and may.
///
/// Each transport sets ``current`` around the handling of a request (REST, streaming) or of a
/// WebSocket connection; ``Credentials/identity()`` refuses `owner` when it says no.
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

    /// The origin of the request being handled (nil outside a request: every caller may then
    /// use `owner`, as the library's own callers do).
    @TaskLocal package static var current: RequestOrigin?

    /// Whether the administrator's credentials are accepted from this request.
    package var allowsAdministrator: Bool {
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
        let from = origin.map { "Origin \($0)" } ?? "a cross-site page (Sec-Fetch-Site: cross-site)"
        return ServerError(
            .permissionDenied,
            "Administrator credentials (owner) are accepted from a browser only from a page on this machine (http://localhost:PORT, http://127.0.0.1:PORT); this request comes from \(from).",
            explanation: "owner refused: the request comes from \(from), not a loopback origin")
    }
}
