import Foundation

/// Which `Host` (HTTP/1.1) or `:authority` (HTTP/2) values the server answers, against DNS
/// rebinding: a page on `evil.example` whose name is made to resolve to 127.0.0.1 reaches the
/// server with `Host: evil.example`, so a host *name* must be a loopback name (`localhost`,
/// `*.localhost`) or one the user allowed (`rules serve --allow-host NAME`). An IP literal (v4,
/// or v6 in brackets) is always accepted: a rebinding page cannot make the browser send one,
/// and devices reach the machine by address (Android's emulator as `10.0.2.2`).
package struct HostPolicy: Sendable, Hashable {
    /// Host names accepted besides the loopback names, lowercased, without a port.
    package var allowedNames: Set<String>

    /// A policy accepting IP literals, the loopback names and `allowedNames`.
    package init(allowedNames: some Sequence<String> = []) {
        self.allowedNames = Set(allowedNames.map { Self.normalized($0) })
    }

    /// Whether a request with this `Host` (or authority) is answered. A request without one
    /// (HTTP/1.0) is answered: no browser sends such a request.
    package func allows(authority: String?) -> Bool {
        guard let authority else { return true }
        guard let host = Self.host(ofAuthority: authority) else { return false }
        if Self.isIPLiteral(host) || Self.isLoopbackName(host) { return true }
        return allowedNames.contains(host)
    }

    /// The host of an authority (`name:port`, `[v6]:port`), lowercased, without a trailing dot;
    /// nil when it is not one. Strict: the port, when there is a colon, is 1 to 5 ASCII digits
    /// up to 65535; a bracketed host is an IPv6 address; a name is ASCII letters, digits,
    /// hyphens and dots (no user info, path, spaces or other characters).
    static func host(ofAuthority authority: String) -> String? {
        var text = Substring(authority)
        // Bytes, not characters: a non-ASCII character's bytes are all 0x80 or above.
        if text.isEmpty || !text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return nil }
            let literal = String(text[...close]).lowercased()
            return isIPv6(literal.dropFirst().dropLast()) ? literal : nil
        }
        if let colon = text.lastIndex(of: ":") {
            guard isPort(text[text.index(after: colon)...]) else { return nil }
            text = text[..<colon]
        }
        let name = normalized(String(text))
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
            return nil
        }
        return name
    }

    /// A port: 1 to 5 ASCII digits, at most 65535.
    static func isPort(_ text: Substring) -> Bool {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let n = Int(text) else { return false }
        return n <= 65535
    }

    /// Whether text is an IPv6 address (as the system's `inet_pton` reads one; a zone after `%`
    /// is allowed).
    static func isIPv6(_ text: Substring) -> Bool {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard !address.isEmpty else { return false }
        var storage = in6_addr()
        return inet_pton(AF_INET6, String(address), &storage) == 1
    }

    /// A host name lowercased, without a trailing dot.
    static func normalized(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        return name
    }

    /// `localhost` and the names under it (RFC 6761: they resolve to loopback only).
    static func isLoopbackName(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost")
    }

    /// An IPv4 literal in dotted decimal (four numbers 0–255), or an IPv6 literal in brackets.
    static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") {
            return isIPv6(host.dropFirst().dropLast())
        }
        return ipv4(host) != nil
    }

    /// A dotted-decimal IPv4 address (four numbers 0–255 of 1 to 3 ASCII digits) as one number,
    /// the first number in its top byte.
    static func ipv4(_ host: String) -> UInt32? {
        var value: UInt32 = 0, part: UInt32 = 0, digits = 0, parts = 0
        for byte in host.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return nil }
                value = value << 8 | part
                parts += 1
                part = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                part = part * 10 + UInt32(byte - UInt8(ascii: "0"))
                guard digits <= 3, part <= 255 else { return nil }
            } else {
                return nil
            }
        }
        guard digits > 0, parts == 3 else { return nil }
        return value << 8 | part
    }

    /// Whether a host (as ``host(ofAuthority:)`` gives it) is this machine: a loopback name,
    /// 127.0.0.0/8 or `[::1]`.
    static func isLoopbackHost(_ host: String) -> Bool {
        if isLoopbackName(host) || host == "[::1]" { return true }
        return ipv4(host).map { $0 >> 24 } == 127
    }

    /// Whether an address to listen on is a loopback one (else the server warns at start).
    package static func isLoopbackAddress(_ address: String) -> Bool {
        let host = address.hasPrefix("[") ? address.lowercased() : (address.contains(":") ? "[\(address.lowercased())]" : normalized(address))
        return isLoopbackHost(host) || host == "[0:0:0:0:0:0:0:1]"
    }
}
