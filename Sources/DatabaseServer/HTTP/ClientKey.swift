import NIOCore

/// Who holds a long-lived resource (a stream, a WebSocket connection, a long-polling session, a
/// request body being received), for the shares of ``ClientShares``. A client is one of:
/// - **this machine** (``isLocal``): a connection from a loopback address whose request names no
///   page (no `Origin`, and not `Sec-Fetch-Site: cross-site`: a tool, an SDK, curl), or names a
///   page on this machine (a loopback origin, or the server's own page). Such clients are keyed
///   by the origin they name (`this machine` alone for tools), and together they may use the
///   reserve that others never take;
/// - **a site**: a loopback connection from another site's page, keyed by the registrable part
///   of its origin's host (`evil.example` for `https://a.evil.example:8443`), which a browser
///   sets and a page cannot change: ten subdomains of one site are one client;
/// - **an address**: a connection from another machine, keyed by its address alone, whatever
///   its headers say (a script elsewhere sets them freely; it cannot as cheaply multiply its
///   addresses).
///
/// A process on this machine can claim any key (its headers are its own); it is the
/// developer's own, already able to read the data file, and the shares are about clients
/// elsewhere and pages of other sites. See `docs/limits.md`, "Shares of long-lived resources".
struct ClientKey: Hashable, Sendable, CustomStringConvertible {
    /// How the client is named in answers and the log (`site evil.example`).
    let name: String
    /// Whether the client is this machine's (it may use the reserve).
    let isLocal: Bool

    init(name: String, isLocal: Bool) {
        self.name = name
        self.isLocal = isLocal
    }

    var description: String { name }

    /// A tool on this machine (no page named): the server's own callers, tests.
    static let local = ClientKey(name: "this machine", isLocal: true)

    /// The client of a request with this browser context, from `peer` (nil: not a network
    /// connection, taken as this machine).
    init(origin: RequestOrigin, peer: SocketAddress?) {
        if let address = peer?.ipAddress, !Self.isLoopbackAddress(address) {
            self.init(name: "address " + address, isLocal: false)
            return
        }
        if let page = origin.origin {
            if RequestOrigin.isLoopbackOrigin(page) || origin.isSameOrigin(page) {
                self.init(name: "this machine, origin " + Self.shown(page.lowercased()), isLocal: true)
            } else {
                self.init(name: "site " + Self.site(ofOrigin: page), isLocal: false)
            }
            return
        }
        if origin.fetchSite?.lowercased() == "cross-site" {
            self.init(name: "site unknown (cross-site, no origin)", isLocal: false)
            return
        }
        self = .local
    }

    /// Whether a peer address (as `SocketAddress.ipAddress` gives it) is this machine's:
    /// 127.0.0.0/8, `::1`, or 127.0.0.0/8 mapped into IPv6.
    static func isLoopbackAddress(_ address: String) -> Bool {
        let lowered = address.lowercased()
        if lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let v4 = lowered.hasPrefix("::ffff:") ? String(lowered.dropFirst(7)) : lowered
        return HostPolicy.ipv4(v4).map { $0 >> 24 } == 127
    }

    /// The registrable part of an origin's host: an IP literal as it is; a name's last two
    /// labels, or three when the last two look like a country's second-level domain
    /// (`example.co.uk`). Without the public suffix list this merges a few unrelated sites
    /// (`a.github.io` and `b.github.io`), which only makes them share one client's place.
    static func site(ofOrigin origin: String) -> String {
        if origin.lowercased() == "null" { return "null (an opaque origin)" }
        guard let parsed = RequestOrigin.parse(origin), let host = HostPolicy.host(ofAuthority: parsed.authority) else {
            return "unreadable origin"
        }
        if HostPolicy.isIPLiteral(host) { return host }
        let labels = host.split(separator: ".", omittingEmptySubsequences: true)
        guard labels.count > 2 else { return shown(host) }
        let secondLevel: Set<Substring> = ["co", "com", "net", "org", "ac", "gov", "edu", "ne", "or", "go"]
        let count = labels.last!.count == 2 && secondLevel.contains(labels[labels.count - 2]) ? 3 : 2
        return shown(labels.suffix(count).joined(separator: "."))
    }

    /// At most 100 characters of a name taken from a header (a longer one only merges clients).
    static func shown(_ text: String) -> String {
        String(text.unicodeScalars.prefix(100).map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) })
    }
}
