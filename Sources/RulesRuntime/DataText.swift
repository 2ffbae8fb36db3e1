/// Text formatting shared by the data model's messages and JSON export.
public enum DataText {
    /// The most characters of a key or string shown in a message before it is cut with "…".
    static let shownCharacters = 40
    /// The most characters of a path shown in a message.
    static let shownPathCharacters = 120

    /// `s` as a JSON string literal: quotes, `\"`, `\\` and control characters escaped.
    public static func jsonQuoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        appendJSONEscaped(s, to: &out)
        out.append("\"")
        return out
    }

    /// Appends the escaped contents of a JSON string literal (without quotes).
    static func appendJSONEscaped(_ s: String, to out: inout String) {
        // Fast path: most strings need no escaping.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            out.append(s)
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "\u{08}": out.append("\\b")
            case "\u{0C}": out.append("\\f")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out.append(hex4(scalar.value))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// `\uXXXX` for a code point below 0x10000.
    private static func hex4(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: false)
        return "\\u" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
    }

    /// `s` cut to ``shownCharacters`` characters with "…" when longer.
    static func truncated(_ s: String, limit: Int = shownCharacters) -> String {
        var count = 0
        var end = s.startIndex
        while end < s.endIndex {
            if count == limit { return String(s[..<end]) + "…" }
            end = s.index(after: end)
            count += 1
        }
        return s
    }

    /// A key for a message: quoted, escaped and cut when long (`"a.b"`, `"xxx…"`).
    static func shownKey(_ key: String) -> String {
        jsonQuoted(truncated(key))
    }

    /// A path for a message (`/users/a.b`, `/` for the root): control characters escaped, long
    /// keys and long paths cut with "…".
    static func shownPath(_ keys: [String]) -> String {
        if keys.isEmpty { return "/" }
        var out = ""
        for key in keys {
            out.append("/")
            appendJSONEscaped(truncated(key), to: &out)
        }
        return truncated(out, limit: shownPathCharacters)
    }

    /// A number as JSON text: integers without a fraction (`1`, not `1.0`), `-0` as `0`, other
    /// values in Swift's shortest round-trip form (`0.1`, `1e+30`). Non-finite numbers, which
    /// JSON cannot hold, become `null`.
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == 0 { return "0" }
        // Whole numbers below 1e18 fit Int64 exactly; print them as integers.
        if d == d.rounded(.towardZero), Swift.abs(d) < 1e18 {
            return String(Int64(d))
        }
        return d.description
    }
}
