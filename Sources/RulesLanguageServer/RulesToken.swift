import RulesSyntax

/// The tokens of a relaxed-JSON rules file, comments included, each with its exact spelling and
/// the line breaks before it: what the formatter needs to rewrite layout and keep comments.
struct RulesToken: Equatable {
    enum Kind: Equatable {
        case open(Character), close(Character), colon, comma, string, scalar, lineComment, blockComment
    }

    var kind: Kind
    var text: String
    /// Line breaks between the previous token and this one.
    var newlinesBefore: Int

    var isComment: Bool { kind == .lineComment || kind == .blockComment }

    /// The tokens of `bytes`, nil when something cannot be tokenized (an unterminated string or
    /// comment).
    static func tokenize(_ bytes: [UInt8]) -> [RulesToken]? {
        var out: [RulesToken] = []
        var i = 0
        var newlines = 0
        func add(_ kind: Kind, _ start: Int, _ end: Int) {
            out.append(RulesToken(kind: kind, text: String(decoding: bytes[start..<end], as: UTF8.self), newlinesBefore: newlines))
            newlines = 0
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\n"):
                newlines += 1
                i += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                add(.open(Character(UnicodeScalar(b))), i, i + 1)
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                add(.close(Character(UnicodeScalar(b))), i, i + 1)
                i += 1
            case UInt8(ascii: ":"):
                add(.colon, i, i + 1)
                i += 1
            case UInt8(ascii: ","):
                add(.comma, i, i + 1)
                i += 1
            case UInt8(ascii: "\""):
                var j = i + 1
                while j < bytes.count && bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                guard j < bytes.count else { return nil }
                add(.string, i, j + 1)
                i = j + 1
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                var j = i
                while j < bytes.count && bytes[j] != UInt8(ascii: "\n") { j += 1 }
                var end = j
                while end > i && (bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: " ")) { end -= 1 }
                add(.lineComment, i, end)
                i = j
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                var j = i + 2
                while j + 1 < bytes.count && !(bytes[j] == UInt8(ascii: "*") && bytes[j + 1] == UInt8(ascii: "/")) { j += 1 }
                guard j + 1 < bytes.count else { return nil }
                add(.blockComment, i, j + 2)
                i = j + 2
            default:
                var j = i
                while j < bytes.count, !" \t\r\n{}[]:,\"/".utf8.contains(bytes[j]) { j += 1 }
                if j == i { j += 1 }
                add(.scalar, i, j)
                i = j
            }
        }
        return out
    }
}
