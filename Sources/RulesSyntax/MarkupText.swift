/// Text inside XML or HTML (an attribute value or element content): the one escaping the
/// project uses for the JUnit report and the server's page.
package enum MarkupText {
    /// Escapes `& < > " '` and drops characters XML 1.0 cannot hold.
    package static func escaped(_ s: String) -> String {
        // Most text has nothing to escape: return it as it is.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == 0xEF }) {
            return s
        }
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: continue
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
