/// Splits a rule expression into tokens, one at a time, over its UTF-8 bytes (spec §2).
///
/// The lexer is pulled by the parser, so it reports the first bad token in source order. It
/// rejects on sight the JavaScript operators the rules language lacks (assignments, `;`, `**`,
/// bitwise operators, `++`, `--`), since no context makes them valid. Whether a `/` starts a
/// regular expression literal is decided from the previous token, as JavaScript does.
struct ExpressionLexer {
    private let bytes: [UInt8]
    private var position = 0
    private var previousEndsOperand = false

    /// Creates a lexer over the UTF-8 bytes of the expression (which must be valid UTF-8, as
    /// `Array(string.utf8)` always is).
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The spelling of a token.
    func text(of token: ExpressionToken) -> ArraySlice<UInt8> {
        bytes[clampedRange(token.start, token.end)]
    }

    /// Reads the next token; at the end of the text it returns `.end` tokens forever.
    mutating func next() throws(ExpressionSyntaxError) -> ExpressionToken {
        skipWhitespace()
        let start = position
        guard let byte = byte(at: start) else {
            return ExpressionToken(kind: .end, start: start, end: start)
        }
        let token: ExpressionToken
        if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && self.byte(at: start + 1).map(Self.isDigit) == true) {
            token = try lexNumber()
        } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
            token = try lexString()
        } else if Self.isIdentifierStart(byte) || byte == UInt8(ascii: "$") {
            token = try lexWord()
        } else if byte == UInt8(ascii: "/") && !previousEndsOperand {
            token = try lexRegex()
        } else {
            token = try lexPunctuator()
        }
        previousEndsOperand = token.endsOperand
        return token
    }

    // MARK: - Bytes

    private func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    private func clampedRange(_ start: Int, _ end: Int) -> Range<Int> {
        let lower = min(max(start, 0), bytes.count)
        return lower..<min(max(end, lower), bytes.count)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    private static func isIdentifierStart(_ b: UInt8) -> Bool { isLetter(b) || b == UInt8(ascii: "_") }

    private static func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || isDigit(b) }

    private static func hexValue(_ b: UInt8) -> UInt32 {
        if isDigit(b) { return UInt32(b - 0x30) }
        return UInt32((b | 0x20) - 0x61 + 10)
    }

    /// The scalar starting at `offset` and its length in bytes. The input is valid UTF-8; the
    /// bounds checks only keep a malformed sequence from reading past the end.
    private func scalar(at offset: Int) -> (scalar: Unicode.Scalar, length: Int) {
        guard let lead = byte(at: offset) else { return ("\u{FFFD}", 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0x00..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC0..<0xE0: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0..<0xF0: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0..<0xF8: length = 4; value = UInt32(lead & 0x07)
        default: return ("\u{FFFD}", 1)
        }
        for i in 1..<length {
            guard let b = byte(at: offset + i), b & 0xC0 == 0x80 else { return ("\u{FFFD}", i) }
            value = value << 6 | UInt32(b & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// True when a JavaScript line terminator starts at `offset`: LF, CR, U+2028 or U+2029.
    private func isLineBreak(at offset: Int) -> Bool {
        switch byte(at: offset) {
        case 0x0A, 0x0D: return true
        case 0xE2: return byte(at: offset + 1) == 0x80 && (byte(at: offset + 2) == 0xA8 || byte(at: offset + 2) == 0xA9)
        default: return false
        }
    }

    /// Skips JavaScript white space and line terminators: expressions come from JSON strings
    /// that may span lines and be indented with tabs.
    private mutating func skipWhitespace() {
        while let b = byte(at: position) {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                position += 1
            case 0x80...:
                let (scalar, length) = scalar(at: position)
                guard scalar.properties.isWhitespace || scalar == "\u{FEFF}" else { return }
                position += length
            default:
                return
            }
        }
    }

    // MARK: - Tokens

    private mutating func lexNumber() throws(ExpressionSyntaxError) -> ExpressionToken {
        let start = position
        skipDigits()
        if byte(at: position) == UInt8(ascii: ".") {
            position += 1
            skipDigits()
        }
        if let e = byte(at: position), e | 0x20 == UInt8(ascii: "e") {
            var p = position + 1
            if let sign = byte(at: p), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { p += 1 }
            guard let digit = byte(at: p), Self.isDigit(digit) else {
                throw .invalidNumber(at: SourceRange(start, p))
            }
            position = p
            skipDigits()
        }
        // `3in`, `0x1F`, `1e3x`: a name may not touch a number.
        if let next = byte(at: position), Self.isIdentifierPart(next) || next == UInt8(ascii: "$") {
            var end = position
            while let b = byte(at: end), Self.isIdentifierPart(b) || b == UInt8(ascii: "$") { end += 1 }
            throw .invalidNumber(at: SourceRange(start, end))
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            throw .invalidNumber(at: SourceRange(start, position))
        }
        return ExpressionToken(kind: .number(value), start: start, end: position)
    }

    private mutating func skipDigits() {
        while let b = byte(at: position), Self.isDigit(b) { position += 1 }
    }

    private mutating func lexString() throws(ExpressionSyntaxError) -> ExpressionToken {
        let start = position
        let quote = bytes[start]
        let opening = SourceRange(start, start + 1)
        var decoded: [UInt8] = []
        position += 1
        while true {
            guard let b = byte(at: position), b != 0x0A, b != 0x0D else {
                throw .unterminatedString(at: opening)
            }
            if b == quote {
                position += 1
                break
            }
            if b == UInt8(ascii: "\\") {
                try lexEscape(into: &decoded, opening: opening)
            } else {
                decoded.append(b)
                position += 1
            }
        }
        return ExpressionToken(kind: .string(String(decoding: decoded, as: UTF8.self)), start: start, end: position)
    }

    /// Decodes the escape at `position` (a backslash) into `out`.
    private mutating func lexEscape(into out: inout [UInt8], opening: SourceRange) throws(ExpressionSyntaxError) {
        let escapeStart = position
        position += 1
        guard let c = byte(at: position) else { throw .unterminatedString(at: opening) }
        position += 1
        switch c {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "v"): out.append(0x0B)
        case UInt8(ascii: "0"): out.append(0x00)
        case 0x0A:
            break  // a line continuation adds nothing
        case 0x0D:
            if byte(at: position) == 0x0A { position += 1 }
        case UInt8(ascii: "x"):
            guard let value = readHex(count: 2) else {
                throw .invalidEscape(at: SourceRange(escapeStart, position))
            }
            append(Unicode.Scalar(UInt8(value)), to: &out)
        case UInt8(ascii: "u"):
            guard var value = readUnicodeEscapeValue() else {
                throw .invalidEscape(at: SourceRange(escapeStart, position))
            }
            // A UTF-16 surrogate pair written as two escapes is one character.
            if (0xD800...0xDBFF).contains(value), byte(at: position) == UInt8(ascii: "\\"),
                byte(at: position + 1) == UInt8(ascii: "u")
            {
                let saved = position
                position += 2
                if let low = readHex(count: 4), (0xDC00...0xDFFF).contains(low) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    position = saved
                }
            }
            // A lone surrogate cannot be stored in a Swift string.
            append(Unicode.Scalar(value) ?? "\u{FFFD}", to: &out)
        default:
            if isLineBreak(at: escapeStart + 1) {
                position = escapeStart + 4  // U+2028 / U+2029 continuation: three bytes
                break
            }
            // Any other `\c` is `c` itself, whatever its length in bytes.
            let (_, length) = scalar(at: escapeStart + 1)
            out.append(contentsOf: bytes[clampedRange(escapeStart + 1, escapeStart + 1 + length)])
            position = escapeStart + 1 + length
        }
    }

    /// Reads `\u` digits after the `u`: `HHHH` or `{H...}` (at most U+10FFFF).
    private mutating func readUnicodeEscapeValue() -> UInt32? {
        guard byte(at: position) == UInt8(ascii: "{") else { return readHex(count: 4) }
        var p = position + 1
        var value: UInt32 = 0
        var digits = 0
        while let b = byte(at: p), Self.isHexDigit(b) {
            value = value << 4 | Self.hexValue(b)
            digits += 1
            p += 1
            if value > 0x10FFFF { return nil }
        }
        guard digits > 0, byte(at: p) == UInt8(ascii: "}") else { return nil }
        position = p + 1
        return value
    }

    /// Reads exactly `count` hex digits, or nothing.
    private mutating func readHex(count: Int) -> UInt32? {
        var value: UInt32 = 0
        for i in 0..<count {
            guard let b = byte(at: position + i), Self.isHexDigit(b) else { return nil }
            value = value << 4 | Self.hexValue(b)
        }
        position += count
        return value
    }

    private func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    private mutating func lexWord() throws(ExpressionSyntaxError) -> ExpressionToken {
        let start = position
        if bytes[start] == UInt8(ascii: "$") {
            position += 1
            // A `$` must be followed by a name, as in a wildcard key `$uid`.
            guard let b = byte(at: position), Self.isIdentifierPart(b) else {
                throw .unexpectedToken(bytes[start..<position], at: SourceRange(start, position))
            }
        }
        while let b = byte(at: position), Self.isIdentifierPart(b) { position += 1 }
        let word = String(decoding: bytes[start..<position], as: UTF8.self)
        return ExpressionToken(kind: .word(word), start: start, end: position)
    }

    private mutating func lexRegex() throws(ExpressionSyntaxError) -> ExpressionToken {
        let start = position
        let opening = SourceRange(start, start + 1)
        var inClass = false
        position += 1
        while true {
            guard let b = byte(at: position), !isLineBreak(at: position) else {
                throw .unterminatedRegex(at: opening)
            }
            if b == UInt8(ascii: "\\") {
                position += 1
                guard byte(at: position) != nil, !isLineBreak(at: position) else {
                    throw .unterminatedRegex(at: opening)
                }
                position += 1  // a multi-byte character's other bytes are never special
                continue
            }
            if b == UInt8(ascii: "/") && !inClass { break }
            if b == UInt8(ascii: "[") {
                inClass = true
            } else if b == UInt8(ascii: "]") {
                inClass = false
            }
            position += 1
        }
        if position == start + 1 {
            throw .emptyRegex(at: SourceRange(start, position + 1))
        }
        let pattern = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
        position += 1
        let flagsStart = position
        while let b = byte(at: position), Self.isLetter(b) { position += 1 }
        let flags = String(decoding: bytes[flagsStart..<position], as: UTF8.self)
        return ExpressionToken(kind: .regex(pattern: pattern, flags: flags), start: start, end: position)
    }

    /// How a run of operator characters is treated.
    private enum Spelling: Sendable {
        case token(ExpressionToken.Punctuator)
        case assignment
        case statementSeparator
        case forbidden
    }

    /// Every operator spelling recognised, for longest-match lexing.
    private static let spellings: [String: Spelling] = {
        var table: [String: Spelling] = [:]
        for p in [
            ExpressionToken.Punctuator.leftParen, .rightParen, .leftBracket, .rightBracket, .leftBrace, .rightBrace,
            .comma, .dot, .question, .colon, .bang, .plus, .minus, .star, .slash, .percent, .less, .lessOrEqual,
            .greater, .greaterOrEqual, .equal, .notEqual, .strictEqual, .strictNotEqual, .and, .or,
        ] {
            table[p.rawValue] = .token(p)
        }
        for s in ["=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??="] {
            table[s] = .assignment
        }
        for s in ["**", "&", "|", "^", "~", "<<", ">>", ">>>", "++", "--", "??"] {
            table[s] = .forbidden
        }
        table[";"] = .statementSeparator
        return table
    }()

    /// A spelling's bytes packed into an integer (first byte lowest, the length above them, so a
    /// NUL byte cannot pass for a shorter spelling), with what it is.
    private struct Candidate: Sendable {
        var packed: UInt64
        var length: Int
        var spelling: Spelling
    }

    /// ``spellings`` by first ASCII byte, longest first: the lexer compares packed integers for
    /// the one to four spellings that start with a byte, instead of building and hashing keys.
    private static let candidates: [[Candidate]] = {
        var table = [[Candidate]](repeating: [], count: 128)
        for (spelling, kind) in spellings {
            let bytes = Array(spelling.utf8)
            table[Int(bytes[0])].append(Candidate(packed: pack(bytes[...]), length: bytes.count, spelling: kind))
        }
        for i in table.indices { table[i].sort { $0.length > $1.length } }
        return table
    }()

    private static func pack(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for b in bytes.prefix(4) {
            value |= UInt64(b) << shift
            shift += 8
        }
        return value | UInt64(bytes.count) << 32
    }

    private mutating func lexPunctuator() throws(ExpressionSyntaxError) -> ExpressionToken {
        let start = position
        if bytes[start] < 0x80 {
            for candidate in Self.candidates[Int(bytes[start])] {
                let length = candidate.length
                guard length <= bytes.count - start, Self.pack(bytes[start..<(start + length)]) == candidate.packed else {
                    continue
                }
                let range = SourceRange(start, start + length)
                switch candidate.spelling {
                case .token(let p):
                    position = start + length
                    return ExpressionToken(kind: .punctuator(p), start: start, end: position)
                case .assignment: throw .assignment(at: range)
                case .statementSeparator: throw .multipleStatements(at: range)
                case .forbidden:
                    throw .forbiddenOperator(String(decoding: bytes[start..<(start + length)], as: UTF8.self), at: range)
                }
            }
        }
        let (_, length) = scalar(at: start)
        let range = clampedRange(start, start + length)
        throw .unexpectedToken(bytes[range], at: SourceRange(range.lowerBound, range.upperBound))
    }
}
