import RulesSyntax

/// How the data model's messages show keys and paths: escaped, and cut when long. (JSON
/// quoting and numbers are ``JSONText``'s.)
package enum DataText {
    /// The most characters of a key or string shown in a message before it is cut with "…".
    static let shownCharacters = 40
    /// The most characters of a path shown in a message.
    static let shownPathCharacters = 120

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
        JSONText.quote(truncated(key))
    }

    /// A path for a message (`/users/a.b`, `/` for the root): control characters escaped, long
    /// keys and long paths cut with "…".
    static func shownPath(_ keys: [String]) -> String {
        if keys.isEmpty { return "/" }
        var out = ""
        for key in keys {
            out.append("/")
            JSONText.appendEscaped(truncated(key), to: &out)
        }
        return truncated(out, limit: shownPathCharacters)
    }
}
