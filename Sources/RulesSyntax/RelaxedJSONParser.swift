/// The byte scanner behind ``RelaxedJSONReader``.
///
/// It reads already-validated UTF-8 through an index into an `UnsafeBufferPointer`. Containers
/// are kept on an explicit stack instead of the call stack, so nesting depth costs heap memory
/// only and the depth limit is a plain counter check.
struct RelaxedJSONParser: ~Copyable {
    /// Thrown after a fatal error has been recorded; the reading stops and the root is nil.
    struct Stop: Error {}

    /// An array or object whose closing bracket has not been reached yet.
    private struct Frame {
        let isObject: Bool
        /// Offset of the opening bracket.
        let start: Int
        var elements: [JSONNode] = []
        var members: [JSONMember] = []
        /// Decoded keys seen so far, for duplicate detection, once the object has more than
        /// ``Frame/scannedMembers`` members (a smaller one is scanned).
        var keys: Set<String> = []
        /// Members up to which a duplicate key is found by comparing with each member's key: most
        /// objects are small, and a set costs an allocation and a hash per key.
        static let scannedMembers = 16
        /// The key read before the value now being parsed.
        var pendingKey: JSONString?

        init(isObject: Bool, start: Int) {
            self.isObject = isObject
            self.start = start
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let n: Int
    private let options: JSONReaderOptions
    /// The read position.
    private var i = 0
    /// Everything found so far, in order.
    private(set) var diagnostics: [Diagnostic] = []

    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONReaderOptions) {
        self.bytes = bytes
        self.n = bytes.count
        self.options = options
    }

    /// Reads the whole buffer as one value surrounded by trivia.
    mutating func parseDocument() -> JSONNode? {
        do throws(Stop) {
            if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
            try skipTrivia()
            let root = try parseValueTree()
            try skipTrivia()
            if i < n {
                let found = describe(at: i)
                throw fail("Unexpected text after the top-level value.", at: found.range)
            }
            return root
        } catch {
            return nil
        }
    }

    // MARK: - Values and containers

    /// Reads one value starting at `i` (trivia already skipped), including everything nested in it.
    private mutating func parseValueTree() throws(Stop) -> JSONNode {
        var stack: [Frame] = []
        nextValue: while true {
            var value: JSONNode
            guard i < n else {
                throw fail("Expected a JSON value, found the end of the file.", at: .at(n))
            }
            let b = bytes[i]
            switch b {
            case .leftBracket, .leftBrace:
                let isObject = b == .leftBrace
                if stack.count >= options.maxDepth {
                    throw fail(
                        .jsonTooDeep, "Nesting is too deep (more than \(options.maxDepth) levels).",
                        at: SourceRange(i, i + 1))
                }
                stack.append(Frame(isObject: isObject, start: i))
                i += 1
                try skipTrivia()
                let closer: UInt8 = isObject ? .rightBrace : .rightBracket
                if i < n, bytes[i] == closer {
                    i += 1
                    value = closeContainer(stack.removeLast())
                } else if isObject {
                    try readKeyAndColon(into: &stack[stack.count - 1], afterComma: false)
                    continue nextValue
                } else {
                    continue nextValue
                }
            case .quote:
                let s = try parseString()
                value = JSONNode(.string(s), range: s.range)
            case .minus, .plus, .dot, .digit0 ... .digit9:
                value = try parseNumber()
            default:
                value = try parseWord()
            }

            // Hand the finished value to its container; close every container whose end follows.
            while let top = stack.indices.last {
                try skipTrivia()
                if stack[top].isObject {
                    addMember(value: value, to: &stack[top])
                    if i < n, bytes[i] == .comma {
                        let comma = i
                        i += 1
                        try skipTrivia()
                        if i < n, bytes[i] == .rightBrace {
                            trailingComma(at: comma)
                            i += 1
                            value = closeContainer(stack.removeLast())
                            continue
                        }
                        try readKeyAndColon(into: &stack[top], afterComma: true)
                        continue nextValue
                    } else if i < n, bytes[i] == .rightBrace {
                        i += 1
                        value = closeContainer(stack.removeLast())
                    } else {
                        let found = describe(at: i)
                        throw fail(
                            "Expected ',' or '}' after an object member, found \(found.text).", at: found.range)
                    }
                } else {
                    stack[top].elements.append(value)
                    if i < n, bytes[i] == .comma {
                        let comma = i
                        i += 1
                        try skipTrivia()
                        if i < n, bytes[i] == .rightBracket {
                            trailingComma(at: comma)
                            i += 1
                            value = closeContainer(stack.removeLast())
                            continue
                        }
                        continue nextValue
                    } else if i < n, bytes[i] == .rightBracket {
                        i += 1
                        value = closeContainer(stack.removeLast())
                    } else {
                        let found = describe(at: i)
                        throw fail(
                            "Expected ',' or ']' after an array element, found \(found.text).", at: found.range)
                    }
                }
            }
            return value
        }
    }

    /// Turns a finished frame into its node; `i` is just past the closing bracket.
    private func closeContainer(_ frame: consuming Frame) -> JSONNode {
        let range = SourceRange(frame.start, i)
        return frame.isObject ? JSONNode(.object(frame.members), range: range) : JSONNode(.array(frame.elements), range: range)
    }

    /// Reads `"key"` and `:` and the trivia after them, leaving `i` at the member's value.
    private mutating func readKeyAndColon(into frame: inout Frame, afterComma: Bool) throws(Stop) {
        guard i < n, bytes[i] == .quote else {
            let found = describe(at: i)
            let expected = afterComma ? "Expected a string key after ','" : "Expected a string key or '}'"
            throw fail("\(expected), found \(found.text).", at: found.range)
        }
        let key = try parseString()
        try skipTrivia()
        guard i < n, bytes[i] == .colon else {
            let found = describe(at: i)
            throw fail("Expected ':' after the key '\(abbreviated(key.value))', found \(found.text).", at: found.range)
        }
        i += 1
        try skipTrivia()
        frame.pendingKey = key
    }

    /// Adds the member for the pending key, or reports the key as a duplicate and drops it.
    private mutating func addMember(value: JSONNode, to frame: inout Frame) {
        guard let key = frame.pendingKey else { return }
        frame.pendingKey = nil
        if Self.isNew(key.value, in: &frame) {
            frame.members.append(JSONMember(key: key, value: value))
        } else {
            diagnostics.append(
                .error(.jsonDuplicateKey, "Duplicate key '\(abbreviated(key.value))'.", at: key.range))
        }
    }

    /// Whether no member of the frame has `key` yet (keys compare as `String`s, canonically).
    private static func isNew(_ key: String, in frame: inout Frame) -> Bool {
        if frame.members.count < Frame.scannedMembers {
            for member in frame.members where member.key.value == key { return false }
            return true
        }
        if frame.keys.isEmpty {
            frame.keys.reserveCapacity(frame.members.count * 2)
            for member in frame.members { frame.keys.insert(member.key.value) }
        }
        return frame.keys.insert(key).inserted
    }

    /// Reports a comma before `}` or `]`: a warning when allowed, otherwise an error that does
    /// not stop the reading.
    private mutating func trailingComma(at offset: Int) {
        let range = SourceRange(offset, offset + 1)
        diagnostics.append(
            options.allowsTrailingCommas
                ? .warning(.jsonTrailingComma, "Trailing comma.", at: range)
                : .error(.jsonTrailingComma, "Trailing comma.", at: range))
    }

    /// Reads `true`, `false` or `null`; any other word or character is an error.
    private mutating func parseWord() throws(Stop) -> JSONNode {
        let start = i
        var end = i
        while end < n, bytes[end].isWordByte { end += 1 }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let kind: JSONNode.Kind
        if word.elementsEqual("true".utf8) {
            kind = .bool(true)
        } else if word.elementsEqual("false".utf8) {
            kind = .bool(false)
        } else if word.elementsEqual("null".utf8) {
            kind = .null
        } else {
            let found = describe(at: start)
            throw fail("Expected a JSON value, found \(found.text).", at: found.range)
        }
        i = end
        return JSONNode(kind, range: SourceRange(start, end))
    }

    // MARK: - Numbers

    /// Reads a number. The whole run of number-like bytes is taken first so that `01`, `1.`,
    /// `+1` or `-Infinity` are reported whole.
    private mutating func parseNumber() throws(Stop) -> JSONNode {
        let start = i
        while i < n, bytes[i].isWordByte || bytes[i] == .plus || bytes[i] == .minus || bytes[i] == .dot { i += 1 }
        let end = i
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)

        // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        var j = start
        var negative = false
        var valid = true
        var simple = true
        var intValue: Int64 = 0
        var intDigits = 0
        if j < end, bytes[j] == .minus {
            negative = true
            j += 1
        }
        if j < end, bytes[j] == .digit0 {
            j += 1
        } else if j < end, bytes[j].isDigit {
            while j < end, bytes[j].isDigit {
                if intDigits < 15 { intValue = intValue * 10 + Int64(bytes[j] &- .digit0) }
                intDigits += 1
                j += 1
            }
        } else {
            valid = false
        }
        if valid, j < end, bytes[j] == .dot {
            simple = false
            j += 1
            let digitsStart = j
            while j < end, bytes[j].isDigit { j += 1 }
            valid = j > digitsStart
        }
        if valid, j < end, bytes[j] == .lowerE || bytes[j] == .upperE {
            simple = false
            j += 1
            if j < end, bytes[j] == .plus || bytes[j] == .minus { j += 1 }
            let digitsStart = j
            while j < end, bytes[j].isDigit { j += 1 }
            valid = j > digitsStart
        }
        guard valid, j == end else {
            throw fail("Invalid number '\(abbreviated(text))'.", at: SourceRange(start, end))
        }

        let value: Double
        if simple, intDigits <= 15 {
            // Exact, and negating after the conversion keeps the sign of -0.
            value = negative ? -Double(intValue) : Double(intValue)
        } else if let parsed = Double(text) {
            value = parsed
        } else {
            throw fail("Invalid number '\(abbreviated(text))'.", at: SourceRange(start, end))
        }
        return JSONNode(.number(value, text: text), range: SourceRange(start, end))
    }

    // MARK: - Strings

    /// Reads a string starting at its opening quote.
    private mutating func parseString() throws(Stop) -> JSONString {
        let start = i
        i += 1
        let contentStart = i
        // Fast path: no escapes, so the content bytes are the decoded text.
        while i < n {
            let b = bytes[i]
            if b == .quote {
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<i]), as: UTF8.self)
                i += 1
                return JSONString(value: value, range: SourceRange(start, i))
            }
            if b == .backslash {
                return try parseEscapedString(start: start, contentStart: contentStart)
            }
            if b < 0x20 { try checkRawControl(b) }
            i += 1
        }
        throw fail("Unterminated string.", at: SourceRange(start, start + 1))
    }

    /// Continues a string at its first backslash, decoding into a byte buffer and recording one
    /// checkpoint per escape.
    private mutating func parseEscapedString(start: Int, contentStart: Int) throws(Stop) -> JSONString {
        var out: [UInt8] = []
        out.reserveCapacity(i - contentStart + 64)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<i]))
        var checkpoints: [JSONString.Checkpoint] = []
        while i < n {
            // Copy the run up to the next quote, backslash or control character in one go.
            let runStart = i
            while i < n, bytes[i] != .quote, bytes[i] != .backslash, bytes[i] >= 0x20 { i += 1 }
            if i > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            guard i < n else { break }
            let b = bytes[i]
            if b == .quote {
                i += 1
                return JSONString(
                    value: String(decoding: out, as: UTF8.self), range: SourceRange(start, i), checkpoints: checkpoints)
            }
            if b != .backslash {
                try checkRawControl(b)
                out.append(b)
                i += 1
                continue
            }
            let escapeStart = i
            let decodedStart = out.count
            guard i + 1 < n else { break }
            switch bytes[i + 1] {
            case .quote: out.append(.quote)
            case .backslash: out.append(.backslash)
            case .slash: out.append(.slash)
            case .lowerB: out.append(0x08)
            case .lowerF: out.append(0x0C)
            case .lowerN: out.append(0x0A)
            case .lowerR: out.append(0x0D)
            case .lowerT: out.append(0x09)
            case .lowerU:
                appendUTF8(try parseUnicodeEscape(), to: &out)
            default:
                let found = describe(at: i + 1, wholeWord: false)
                let range = SourceRange(escapeStart, Int(found.range.end))
                // Printable characters are shown as the escape itself, others by name.
                let message =
                    bytes[i + 1] >= 0x20 && bytes[i + 1] != 0x7F
                    ? "Invalid escape '\\\(found.text.dropFirst().dropLast())' in a string."
                    : "Invalid escape: '\\' followed by \(found.text) in a string."
                throw fail(message, at: range)
            }
            // \u escapes have already moved `i`; the two-byte escapes move it here.
            if i == escapeStart { i += 2 }
            checkpoints.append(
                JSONString.Checkpoint(
                    decoded: Int32(clamping: decodedStart), source: Int32(clamping: escapeStart),
                    decodedLength: Int32(clamping: out.count - decodedStart),
                    sourceLength: Int32(clamping: i - escapeStart)))
        }
        throw fail("Unterminated string.", at: SourceRange(start, start + 1))
    }

    /// Reads `\uXXXX` at `i`, or a surrogate pair `\uXXXX\uXXXX`, and moves `i` past it.
    private mutating func parseUnicodeEscape() throws(Stop) -> Unicode.Scalar {
        let escapeStart = i
        let first = try hexQuad(at: i + 2, escapeStart: escapeStart)
        // Only built on the error path.
        func lone() -> String {
            let spelling = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[escapeStart..<escapeStart + 6]), as: UTF8.self)
            return "Lone surrogate '\(spelling)' in a string; U+D800 to U+DFFF must come as a high-low pair."
        }
        switch first {
        case 0xD800...0xDBFF:
            let next = escapeStart + 6
            guard next + 1 < n, bytes[next] == .backslash, bytes[next + 1] == .lowerU else {
                throw fail(lone(), at: SourceRange(escapeStart, next))
            }
            let second = try hexQuad(at: next + 2, escapeStart: next)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw fail(lone(), at: SourceRange(escapeStart, next))
            }
            i = escapeStart + 12
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            // Always valid: the combined value lies in U+10000...U+10FFFF.
            return Unicode.Scalar(combined) ?? "\u{FFFD}"
        case 0xDC00...0xDFFF:
            throw fail(lone(), at: SourceRange(escapeStart, escapeStart + 6))
        default:
            i = escapeStart + 6
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }
    }

    /// The value of the four hex digits at `offset`.
    private mutating func hexQuad(at offset: Int, escapeStart: Int) throws(Stop) -> UInt32 {
        var value: UInt32 = 0
        var j = offset
        while j < offset + 4 {
            guard j < n, let digit = bytes[j].hexValue else {
                let found = describe(at: j, wholeWord: false)
                throw fail(
                    "Invalid \\u escape: expected four hex digits, found \(found.text).",
                    at: SourceRange(escapeStart, max(j, Int(found.range.end))))
            }
            value = value << 4 | UInt32(digit)
            j += 1
        }
        return value
    }

    /// Accepts a raw line break or tab inside a string when the options allow it.
    private mutating func checkRawControl(_ b: UInt8) throws(Stop) {
        let range = SourceRange(i, i + 1)
        switch b {
        case .lineFeed, .carriageReturn:
            if options.allowsRawLineBreaksInStrings { return }
            throw fail("Line break inside a string; write '\\n' instead, or close the string.", at: range)
        case .tab:
            if options.allowsRawLineBreaksInStrings { return }
            throw fail("Tab inside a string; write '\\t' instead.", at: range)
        default:
            throw fail(
                "Control character \(scalarName(b)) inside a string; write '\\u\(hex4(b))' instead.", at: range)
        }
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6))
            out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18))
            out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        }
    }

    // MARK: - Trivia

    /// Skips whitespace and, when allowed, comments.
    private mutating func skipTrivia() throws(Stop) {
        while i < n {
            switch bytes[i] {
            case .space, .tab, .lineFeed, .carriageReturn:
                i += 1
            case .slash:
                guard i + 1 < n, bytes[i + 1] == .slash || bytes[i + 1] == .star else { return }
                guard options.allowsComments else {
                    throw fail("Comments are not allowed.", at: SourceRange(i, i + 2))
                }
                if bytes[i + 1] == .slash {
                    i += 2
                    while i < n, bytes[i] != .lineFeed { i += 1 }
                } else {
                    let start = i
                    i += 2
                    while true {
                        guard i + 1 < n else {
                            throw fail("Unterminated block comment.", at: SourceRange(start, start + 2))
                        }
                        if bytes[i] == .star, bytes[i + 1] == .slash {
                            i += 2
                            break
                        }
                        i += 1
                    }
                }
            default:
                return
            }
        }
    }

    // MARK: - Messages

    /// Records a fatal error and returns the error to throw.
    private mutating func fail(_ message: String, at range: SourceRange) -> Stop {
        fail(.jsonSyntax, message, at: range)
    }

    private mutating func fail(_ code: DiagnosticCode, _ message: String, at range: SourceRange) -> Stop {
        diagnostics.append(.error(code, message, at: range))
        return Stop()
    }

    /// Names what stands at `offset` for a "found ..." message, with its range: a quoted word,
    /// a quoted character, a control character, or the end of the file.
    private func describe(at offset: Int, wholeWord: Bool = true) -> (text: String, range: SourceRange) {
        guard offset < n else { return ("the end of the file", .at(n)) }
        let b = bytes[offset]
        if wholeWord, b.isWordByte {
            var end = offset
            while end < n, bytes[end].isWordByte { end += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            return ("'\(abbreviated(word))'", SourceRange(offset, end))
        }
        switch b {
        case .lineFeed, .carriageReturn:
            return ("a line break", SourceRange(offset, offset + 1))
        case .tab:
            return ("a tab", SourceRange(offset, offset + 1))
        case 0..<0x20, 0x7F:
            return ("the control character \(scalarName(b))", SourceRange(offset, offset + 1))
        case .apostrophe:
            return ("\"'\"", SourceRange(offset, offset + 1))
        default:
            // The file is valid UTF-8, so the lead byte gives the sequence length.
            let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            let end = min(n, offset + length)
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            return ("'\(text)'", SourceRange(offset, end))
        }
    }

    /// Shortens long text quoted in a message.
    private func abbreviated(_ text: String) -> String {
        text.utf8.count <= 40 ? text : String(text.prefix(37)) + "..."
    }

    private func scalarName(_ b: UInt8) -> String { "U+\(hex4(b))" }

    private func hex4(_ b: UInt8) -> String {
        let digits = String(b, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let minus = UInt8(ascii: "-")
    fileprivate static let dot = UInt8(ascii: ".")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let star = UInt8(ascii: "*")
    fileprivate static let digit0 = UInt8(ascii: "0")
    fileprivate static let digit9 = UInt8(ascii: "9")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let upperE = UInt8(ascii: "E")
    fileprivate static let leftBracket = UInt8(ascii: "[")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let rightBracket = UInt8(ascii: "]")
    fileprivate static let lowerB = UInt8(ascii: "b")
    fileprivate static let lowerE = UInt8(ascii: "e")
    fileprivate static let lowerF = UInt8(ascii: "f")
    fileprivate static let lowerN = UInt8(ascii: "n")
    fileprivate static let lowerR = UInt8(ascii: "r")
    fileprivate static let lowerT = UInt8(ascii: "t")
    fileprivate static let lowerU = UInt8(ascii: "u")
    fileprivate static let leftBrace = UInt8(ascii: "{")
    fileprivate static let rightBrace = UInt8(ascii: "}")

    fileprivate var isDigit: Bool { self >= .digit0 && self <= .digit9 }

    /// Letters, digits, `_` and `$`: the bytes of a bare word such as `true` or `NaN`.
    fileprivate var isWordByte: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), .digit0 ... .digit9,
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default: false
        }
    }

    fileprivate var hexValue: UInt8? {
        switch self {
        case .digit0 ... .digit9: self - .digit0
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
