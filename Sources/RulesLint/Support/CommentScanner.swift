import RulesCompiler
import RulesSyntax

/// Finds `//` and `/* */` comments outside JSON strings.
enum CommentScanner {
    struct Comment {
        /// The whole comment.
        var range: SourceRange
        /// Its text without the delimiters.
        var text: SourceRange
    }

    static func scan(_ bytes: [UInt8]) -> [Comment] {
        var out: [Comment] = []
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                while i < n && bytes[i] != UInt8(ascii: "\"") {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                i += 1
            } else if b == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "/") {
                var e = i + 2
                while e < n && bytes[e] != UInt8(ascii: "\n") { e += 1 }
                out.append(Comment(range: SourceRange(i, e), text: SourceRange(i + 2, e)))
                i = e
            } else if b == UInt8(ascii: "/"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "*") {
                var e = i + 2
                while e + 1 < n && !(bytes[e] == UInt8(ascii: "*") && bytes[e + 1] == UInt8(ascii: "/")) { e += 1 }
                let close = min(n, e + 2)
                out.append(Comment(range: SourceRange(i, close), text: SourceRange(i + 2, min(e, n))))
                i = close
            } else {
                i += 1
            }
        }
        return out
    }
}
