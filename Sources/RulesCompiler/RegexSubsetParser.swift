import RulesSyntax

/// A single-pass, non-recursive checker and translator for the Firebase regular expression subset.
///
/// It reads the pattern as Unicode scalars with their UTF-8 offsets, stops at the first problem,
/// and builds the PCRE2 pattern text as it goes. Groups are tracked on an explicit stack so that
/// deeply nested input cannot overflow the call stack. See ``RegexSubset`` for the accepted
/// language and the translation rules.
struct RegexSubsetParser {
    /// The first problem found; thrown to unwind the parse.
    struct Failure: Error {
        var issue: RegexIssue
    }

    /// What the previous token leaves behind, which decides whether a quantifier may follow.
    private enum RepeatState {
        /// Start of pattern, after `(`, `|`, `^`, or after a lazy marker: nothing to repeat.
        case nothing
        /// After an atom: any quantifier may follow.
        case atom
        /// After a quantifier: only the lazy marker `?` may follow.
        case quantified
    }

    /// One open group (or the whole pattern, at the bottom of the stack).
    private struct Frame {
        /// Offset of the `(`; `nil` for the whole pattern.
        var open: Int?
        /// Offset of the `(` or `|` that began the current alternative; `nil` at pattern start.
        var alternativeStart: Int?
        /// Whether the current alternative holds anything that consumes input.
        var alternativeHasAtom = false
        /// Number of alternatives seen so far.
        var alternativeCount = 1
    }

    /// One item of a character class.
    private struct ClassAtom {
        enum Kind {
            /// A single character, which may start or end a range.
            case character(Unicode.Scalar)
            /// A class escape such as `\d`; cannot be a range end.
            case set
            /// `\S`, which PCRE2 cannot express as a class item with JavaScript's meaning.
            case nonSpace
        }
        var kind: Kind
        /// The PCRE2 text for the item inside brackets.
        var text: String
        var start: Int
        var end: Int
    }

    /// JavaScript's `\s`: ASCII white space, Unicode separators (Zs, Zl, Zp) and the BOM. PCRE2
    /// without UCP only knows the ASCII part, and UCP is off so that `\d` and `\w` stay ASCII.
    static let spaceItems = #"\s\p{Z}\x{feff}"#
    /// JavaScript's `.`: anything but the four line terminators (PCRE2's `.` excludes only `\n`).
    static let dotReplacement = #"[^\n\r\x{2028}\x{2029}]"#

    private let scalars: [Unicode.Scalar]
    /// `offsets[i]` is the UTF-8 offset of `scalars[i]`; one extra entry holds the total length.
    private let offsets: [Int]
    private var index = 0
    private var state = RepeatState.nothing
    private var frames = [Frame(open: nil)]
    /// The PCRE2 pattern built so far.
    private(set) var output = ""
    /// For each top-level token: its UTF-8 offset in ``output`` and in the source pattern, in
    /// increasing order; used to map PCRE2 compile-error offsets back to the source.
    private(set) var offsetMap: [(output: Int, source: Int)] = []

    init(_ pattern: String) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = 0
        for scalar in pattern.unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.offsets = offsets
    }

    // MARK: - Driver

    /// Parses the whole pattern; afterwards ``output`` holds the PCRE2 text.
    mutating func parse() throws(Failure) {
        if scalars.isEmpty {
            throw fail("empty regular expression", 0, 0, .regexSyntax)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let start = offsets[index]
            offsetMap.append((output.utf8.count, start))
            switch scalar {
            case "\\":
                try parseEscape()
            case ".":
                output += Self.dotReplacement
                index += 1
                markAtom()
            case "^":
                guard index == 0 else { throw anchorFailure(start) }
                output += "^"
                index += 1
                state = .nothing
            case "$":
                guard index == scalars.count - 1 else { throw anchorFailure(start) }
                output += "$"
                index += 1
                state = .nothing
            case "(":
                if index + 1 < scalars.count, scalars[index + 1] == "?" {
                    throw fail("regular expressions do not support '(?'", start, offsets[index + 2], .regexUnsupported)
                }
                frames.append(Frame(open: start, alternativeStart: start))
                output += "("
                index += 1
                state = .nothing
            case ")":
                guard frames.count > 1, let frame = frames.popLast() else {
                    throw fail("unbalanced parenthesis", start, start + 1, .regexSyntax)
                }
                if !frame.alternativeHasAtom {
                    throw emptyAlternativeFailure(from: frame.alternativeStart ?? start, to: start + 1)
                }
                output += ")"
                index += 1
                markAtom()
            case "|":
                let frame = frames[frames.count - 1]
                if !frame.alternativeHasAtom {
                    throw emptyAlternativeFailure(from: frame.alternativeStart ?? start, to: start + 1)
                }
                frames[frames.count - 1].alternativeStart = start
                frames[frames.count - 1].alternativeHasAtom = false
                frames[frames.count - 1].alternativeCount += 1
                output += "|"
                index += 1
                state = .nothing
            case "*", "+", "?":
                try parseSimpleQuantifier(scalar, start)
            case "{":
                try parseBrace()
            case "}":
                // A `}` that closes no quantifier is a literal (JavaScript Annex B, e.g. `\{foo}`).
                output += "\\}"
                index += 1
                markAtom()
            case "]":
                throw fail("unbalanced bracket", start, start + 1, .regexSyntax)
            case "[":
                try parseClass()
            default:
                output += Self.literalText(scalar, escapedInSource: false)
                index += 1
                markAtom()
            }
        }
        if let open = frames[frames.count - 1].open {
            throw fail("unbalanced parenthesis", open, open + 1, .regexSyntax)
        }
        let top = frames[0]
        if top.alternativeCount > 1, !top.alternativeHasAtom, let bar = top.alternativeStart {
            throw emptyAlternativeFailure(from: bar, to: bar + 1)
        }
    }

    // MARK: - Tokens outside classes

    private mutating func markAtom() {
        frames[frames.count - 1].alternativeHasAtom = true
        state = .atom
    }

    private mutating func parseSimpleQuantifier(_ scalar: Unicode.Scalar, _ start: Int) throws(Failure) {
        switch state {
        case .atom:
            state = .quantified
        case .quantified where scalar == "?":
            state = .nothing  // lazy marker; nothing more may follow
        default:
            throw fail("nothing to repeat", start, start + 1, .regexSyntax)
        }
        output.unicodeScalars.append(scalar)
        index += 1
    }

    /// `{n}`, `{n,}` or `{n,m}` is a quantifier; any other `{` is a literal (Annex B).
    private mutating func parseBrace() throws(Failure) {
        let start = offsets[index]
        guard let quantifier = scanBraceQuantifier() else {
            output += "\\{"
            index += 1
            markAtom()
            return
        }
        let end = offsets[quantifier.endIndex]
        guard state == .atom else { throw fail("nothing to repeat", start, end, .regexSyntax) }
        // PCRE2 caps repeat counts at 65535; JavaScript allows more but such patterns are absurd.
        let limit = 65_535
        if quantifier.min > limit || (quantifier.max ?? 0) > limit {
            throw fail("number too large in {} quantifier", start, end, .regexSyntax)
        }
        if let max = quantifier.max, max < quantifier.min {
            throw fail("numbers out of order in {} quantifier", start, end, .regexSyntax)
        }
        output += "{\(quantifier.min)"
        if quantifier.hasComma {
            output += ","
            if let max = quantifier.max { output += "\(max)" }
        }
        output += "}"
        index = quantifier.endIndex
        state = .quantified
    }

    private struct BraceQuantifier {
        var min: Int
        var max: Int?
        var hasComma: Bool
        /// Index of the scalar after the closing `}`.
        var endIndex: Int
    }

    private func scanBraceQuantifier() -> BraceQuantifier? {
        var i = index + 1
        guard let min = scanNumber(&i) else { return nil }
        var max: Int?
        var hasComma = false
        if i < scalars.count, scalars[i] == "," {
            hasComma = true
            i += 1
            max = scanNumber(&i)
        } else {
            max = min
        }
        guard i < scalars.count, scalars[i] == "}" else { return nil }
        return BraceQuantifier(min: min, max: hasComma ? max : min, hasComma: hasComma, endIndex: i + 1)
    }

    /// Reads decimal digits, saturating instead of overflowing.
    private func scanNumber(_ i: inout Int) -> Int? {
        var value = 0
        var sawDigit = false
        while i < scalars.count, let digit = Self.digitValue(scalars[i]) {
            value = Swift.min(value * 10 + digit, 1_000_000_000)
            sawDigit = true
            i += 1
        }
        return sawDigit ? value : nil
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        scalar.value >= 0x30 && scalar.value <= 0x39 ? Int(scalar.value - 0x30) : nil
    }

    private mutating func parseEscape() throws(Failure) {
        let atom = try readEscape(inClass: false)
        switch atom.kind {
        case .character(let scalar):
            output += atom.text.isEmpty ? Self.literalText(scalar, escapedInSource: true) : atom.text
        case .set:
            output += atom.text
        case .nonSpace:
            output += "[^\(Self.spaceItems)]"
        }
        markAtom()
    }

    // MARK: - Escapes (shared)

    /// Reads `\` and the escaped character at `index`. For characters, `text` is the PCRE2 text
    /// when it differs from the plain literal, and empty otherwise.
    private mutating func readEscape(inClass: Bool) throws(Failure) -> ClassAtom {
        let start = offsets[index]
        guard index + 1 < scalars.count else {
            throw fail("\\ at end of pattern", start, start + 1, .regexSyntax)
        }
        let escaped = scalars[index + 1]
        let end = offsets[index + 2]
        index += 2
        func make(_ kind: ClassAtom.Kind, _ text: String) -> ClassAtom {
            ClassAtom(kind: kind, text: text, start: start, end: end)
        }
        switch escaped {
        case "d", "D", "w", "W":
            return make(.set, "\\\(escaped)")
        case "s":
            return make(.set, inClass ? Self.spaceItems : "[\(Self.spaceItems)]")
        case "S":
            return make(.nonSpace, "")
        case "n": return make(.character("\n"), "\\n")
        case "t": return make(.character("\t"), "\\t")
        case "r": return make(.character("\r"), "\\r")
        case "f": return make(.character("\u{0C}"), "\\f")
        // PCRE2's `\v` is a vertical-space class; JavaScript's is the single character U+000B.
        case "v": return make(.character("\u{0B}"), "\\x{0b}")
        case "b", "B", "u", "x", "p", "P", "k", "c", "0":
            throw fail("regular expressions do not support '\\\(escaped)'", start, end, .regexUnsupported)
        case "1"..."9":
            if inClass {
                throw fail("regular expressions do not support '\\\(escaped)'", start, end, .regexUnsupported)
            }
            throw fail("regular expressions do not support backreferences", start, end, .regexUnsupported)
        default:
            // Any other character is taken literally (`\{`, `\.`, `\/`, `\\`, and JavaScript's
            // identity escapes of letters such as `\a`).
            return make(.character(escaped), "")
        }
    }

    // MARK: - Character classes

    private mutating func parseClass() throws(Failure) {
        let openIndex = index
        let open = offsets[index]
        index += 1
        var negated = false
        if index < scalars.count, scalars[index] == "^" {
            negated = true
            index += 1
        }
        if index < scalars.count, scalars[index] == "]" {
            throw fail("regular expressions do not support empty character classes", open, offsets[index + 1],
                       .regexUnsupported)
        }
        var body = ""
        var hasNonSpace = false
        while true {
            guard index < scalars.count else {
                throw fail("unbalanced bracket", open, open + 1, .regexSyntax)
            }
            if scalars[index] == "]" {
                index += 1
                break
            }
            let isFirst = index == openIndex + 1 + (negated ? 1 : 0)
            let atom = try readClassAtom(isFirst: isFirst)
            if case .character(let low) = atom.kind, index + 1 < scalars.count, scalars[index] == "-",
                scalars[index + 1] != "]"
            {
                index += 1
                let high = try readClassAtom(isFirst: false)
                if case .character(let highScalar) = high.kind {
                    guard low.value <= highScalar.value else {
                        throw fail("range out of order in character class", atom.start, high.end, .regexSyntax)
                    }
                    body += Self.rangeEndText(atom) + "-" + Self.rangeEndText(high)
                } else {
                    // Annex B: a class escape cannot end a range, so the dash is a literal.
                    body += atom.text + "\\-"
                    if case .nonSpace = high.kind { hasNonSpace = true } else { body += high.text }
                }
                continue
            }
            if case .nonSpace = atom.kind { hasNonSpace = true } else { body += atom.text }
        }
        let caret = negated ? "^" : ""
        guard hasNonSpace else {
            output += "[\(caret)\(body)]"
            markAtom()
            return
        }
        // PCRE2 has no class item for JavaScript's `\S`, so rewrite the class as a group.
        let space = "[\(Self.spaceItems)]"
        let nonSpace = "[^\(Self.spaceItems)]"
        switch (negated, body.isEmpty) {
        case (false, true): output += nonSpace
        case (false, false): output += "(?:[\(body)]|\(nonSpace))"
        case (true, true): output += space
        case (true, false): output += "(?:(?![\(body)])\(space))"
        }
        markAtom()
    }

    private mutating func readClassAtom(isFirst: Bool) throws(Failure) -> ClassAtom {
        let scalar = scalars[index]
        let start = offsets[index]
        if scalar == "\\" {
            var atom = try readEscape(inClass: true)
            if case .character(let character) = atom.kind, atom.text.isEmpty {
                atom.text = Self.classCharacterText(character, escapedInSource: true)
            }
            return atom
        }
        index += 1
        let end = offsets[index]
        let text: String
        if scalar == "-" {
            // A dash first or last is literal in both dialects; elsewhere escape it for PCRE2.
            let isLast = index < scalars.count && scalars[index] == "]"
            text = isFirst || isLast ? "-" : "\\-"
        } else {
            text = Self.classCharacterText(scalar, escapedInSource: false)
        }
        return ClassAtom(kind: .character(scalar), text: text, start: start, end: end)
    }

    private static func rangeEndText(_ atom: ClassAtom) -> String {
        if case .character(let scalar) = atom.kind, scalar == "-" { return "\\-" }
        return atom.text
    }

    // MARK: - Literal text

    private static func hexEscape(_ scalar: Unicode.Scalar) -> String {
        "\\x{" + String(scalar.value, radix: 16) + "}"
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: false
        }
    }

    private static let specialOutsideClass: Set<Unicode.Scalar> = [
        "\\", "^", "$", ".", "[", "]", "|", "(", ")", "?", "*", "+", "{", "}",
    ]
    /// `[` could open a POSIX class such as `[:alpha:]` in PCRE2, and `^` could negate.
    private static let specialInClass: Set<Unicode.Scalar> = ["\\", "]", "[", "^", "-"]

    /// A literal character outside a class.
    static func literalText(_ scalar: Unicode.Scalar, escapedInSource: Bool) -> String {
        if scalar.value < 0x20 || scalar.value == 0x7F { return hexEscape(scalar) }
        if !scalar.isASCII || isASCIIAlphanumeric(scalar) { return String(scalar) }
        // A backslash before ASCII punctuation is always a literal in PCRE2 too.
        return escapedInSource || specialOutsideClass.contains(scalar) ? "\\" + String(scalar) : String(scalar)
    }

    /// A literal character inside a class.
    static func classCharacterText(_ scalar: Unicode.Scalar, escapedInSource: Bool) -> String {
        if scalar.value < 0x20 || scalar.value == 0x7F { return hexEscape(scalar) }
        if !scalar.isASCII || isASCIIAlphanumeric(scalar) { return String(scalar) }
        return escapedInSource || specialInClass.contains(scalar) ? "\\" + String(scalar) : String(scalar)
    }

    // MARK: - Failures

    private func fail(_ message: String, _ start: Int, _ end: Int, _ code: DiagnosticCode) -> Failure {
        Failure(issue: RegexIssue(message: message, range: SourceRange(start, end), code: code))
    }

    private func anchorFailure(_ start: Int) -> Failure {
        fail("^ and $ may only appear at the start and end of a regular expression", start, start + 1, .regexAnchor)
    }

    private func emptyAlternativeFailure(from start: Int, to end: Int) -> Failure {
        fail("regular expressions do not support empty alternatives", start, end, .regexEmptyAlternative)
    }
}
