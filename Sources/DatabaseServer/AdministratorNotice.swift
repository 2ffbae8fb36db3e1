/// What the start-up banner says about the administrator (`Authorization: Bearer owner`): who
/// may be it at each address the server answers, as ``RequestOrigin/allowsAdministrator``
/// decides, and, when the server listens beyond loopback, the warning that the `Host` header is
/// the client's to write.
package struct AdministratorNotice: Sendable, Equatable {
    /// The address listened on (`--host`; `127.0.0.1` by default).
    package var host: String
    /// The port listened on.
    package var port: Int
    /// The names given with `--allow-host`.
    package var allowedHosts: [String]

    package init(host: String, port: Int, allowedHosts: [String]) {
        self.host = host
        self.port = port
        self.allowedHosts = allowedHosts
    }

    /// Whether the server listens on an address other machines (or containers) may reach.
    package var exposed: Bool { !HostPolicy.isLoopbackAddress(host) }

    /// The banner's lines, indented as its other entries, with the warning last when the server
    /// listens beyond loopback. A request without a `Host` header (HTTP/1.0) is judged by its
    /// other headers alone, as a program on this machine is: the warning says so.
    package var lines: [String] {
        let names = HostPolicy(allowedNames: allowedHosts).allowedNames.sorted()
        let loopback = ["localhost", "127.0.0.1", "[::1]"].map { "http://\($0):\(port)" }.joined(separator: ", ")
        var lines = [
            "  administrator:     Authorization: Bearer owner (or ?auth=owner) skips the rules; it is accepted, by the Host a request names:",
            "    at \(loopback): from programs, and from browser pages on this machine (a loopback Origin, or this server's own page)",
        ]
        if !names.isEmpty {
            let allowed = names.map { "http://\($0):\(port)" }.joined(separator: ", ")
            lines.append("    at \(allowed) (--allow-host): from programs only (no Origin, Referer or Sec-Fetch-* header), never from a browser page")
        }
        lines.append("    at any other name or address (\(exposed ? "such as this machine's other addresses" : "such as 0.0.0.0")): from nobody")
        if exposed {
            let claim = (["localhost"] + names).joined(separator: " or ")
            lines.append(
                "warning: listening on \(host), not a loopback address: a program that can reach it (another machine, a container) "
                    + "writes its own Host header, so it can be the administrator by sending Host: \(claim) (or no Host header at all); browser pages elsewhere cannot. "
                    + "Use it only on a network you trust.")
        }
        return lines
    }
}
