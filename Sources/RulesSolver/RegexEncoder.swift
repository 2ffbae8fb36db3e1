/// Translates a pattern of the rules' regular expression subset (already accepted by the
/// compiler) into a Z3 regular expression over whole strings: an unanchored side matches
/// anything around it, as `matches()` searches. Nil for a pattern it cannot read.
struct RegexEncoder {
    private let smt: SMT
    private let chars: [Character]
    private var i = 0
    private let caseInsensitive: Bool

    static let lastChar: UInt32 = 0x2FFFF

    static func encode(_ pattern: String, flags: String, smt: SMT) -> Term? {
        var e = RegexEncoder(smt: smt, pattern: pattern, caseInsensitive: flags.contains("i"))
        return e.whole()
    }

    private init(smt: SMT, pattern: String, caseInsensitive: Bool) {
        self.smt = smt
        chars = Array(pattern)
        self.caseInsensitive = caseInsensitive
    }

    private mutating func whole() -> Term? {
        var anchoredStart = false
        var anchoredEnd = false
        var body = chars
        if body.first == "^" {
            anchoredStart = true
            body.removeFirst()
        }
        if body.last == "$", !(body.count >= 2 && body[body.count - 2] == "\\") {
            anchoredEnd = true
            body.removeLast()
        }
        var inner = RegexEncoder(smt: smt, chars: body, caseInsensitive: caseInsensitive)
        guard let re = inner.alternation(), inner.i == body.count else { return nil }
        var parts: [Term] = []
        if !anchoredStart { parts.append(smt.reAll) }
        parts.append(re)
        if !anchoredEnd { parts.append(smt.reAll) }
        return smt.reConcat(parts)
    }

    private init(smt: SMT, chars: [Character], caseInsensitive: Bool) {
        self.smt = smt
        self.chars = chars
        self.caseInsensitive = caseInsensitive
    }

    private var peek: Character? { i < chars.count ? chars[i] : nil }

    private mutating func alternation() -> Term? {
        var options: [Term] = []
        repeat {
            if peek == "|" { i += 1 }
            guard let c = concatenation() else { return nil }
            options.append(c)
        } while peek == "|"
        return smt.reUnion(options)
    }

    private mutating func concatenation() -> Term? {
        var parts: [Term] = []
        while let c = peek, c != "|", c != ")" {
            guard let atom = atom(), let quantified = quantifier(atom) else { return nil }
            parts.append(quantified)
        }
        return smt.reConcat(parts)
    }

    private mutating func quantifier(_ atom: Term) -> Term? {
        var out = atom
        switch peek {
        case "*": i += 1; out = smt.reStar(atom)
        case "+": i += 1; out = smt.rePlus(atom)
        case "?": i += 1; out = smt.reOption(atom)
        case "{":
            guard let (lo, hi, end) = bounds(from: i) else { return atom }
            i = end
            out = smt.reLoop(atom, lo, hi)
        default: return atom
        }
        if peek == "?" { i += 1 }  // a lazy quantifier matches the same strings
        return out
    }

    /// `{n}`, `{n,}` or `{n,m}` at `start`: the bounds and the index after `}`.
    private func bounds(from start: Int) -> (Int, Int?, Int)? {
        var j = start + 1
        func number() -> Int? {
            var s = ""
            while j < chars.count, let d = chars[j].wholeNumberValue, chars[j].isASCII { s.append(chars[j]); _ = d; j += 1 }
            return s.isEmpty ? nil : Int(s)
        }
        guard let lo = number() else { return nil }
        var hi: Int? = lo
        if j < chars.count, chars[j] == "," {
            j += 1
            hi = number()
        }
        guard j < chars.count, chars[j] == "}" else { return nil }
        if let h = hi, h < lo { return nil }
        return (lo, hi, j + 1)
    }

    private mutating func atom() -> Term? {
        guard let c = peek else { return nil }
        i += 1
        switch c {
        case "(":
            guard let inner = alternation(), peek == ")" else { return nil }
            i += 1
            return inner
        case "[":
            return characterClass()
        case ".":
            return dot
        case "\\":
            guard let e = peek else { return nil }
            i += 1
            return escape(e) ?? literal(escapedChar(e))
        default:
            return literal(c)
        }
    }

    private var anyChar: Term { smt.reRange(0, Self.lastChar) }

    private var dot: Term {
        smt.reIntersect(anyChar, smt.reComplement(smt.reUnion([smt.reLiteral("\n"), smt.reLiteral("\r"), smt.reLiteral("\u{2028}"), smt.reLiteral("\u{2029}")])))
    }

    private func escapedChar(_ e: Character) -> Character {
        switch e {
        case "n": "\n"
        case "t": "\t"
        case "r": "\r"
        case "f": "\u{0C}"
        case "v": "\u{0B}"
        default: e
        }
    }

    /// `\d \w \s \D \W \S`, nil for any other escape.
    private func escape(_ e: Character) -> Term? {
        switch e {
        case "d": return digits
        case "w": return word
        case "s": return space
        case "D": return smt.reIntersect(anyChar, smt.reComplement(digits))
        case "W": return smt.reIntersect(anyChar, smt.reComplement(word))
        case "S": return smt.reIntersect(anyChar, smt.reComplement(space))
        default: return nil
        }
    }

    private var digits: Term { smt.reRange(0x30, 0x39) }
    private var word: Term { smt.reUnion([smt.reRange(0x61, 0x7A), smt.reRange(0x41, 0x5A), digits, smt.reLiteral("_")]) }
    private var space: Term {
        smt.reUnion([
            smt.reRange(0x09, 0x0D), smt.reLiteral(" "), smt.reLiteral("\u{A0}"), smt.reLiteral("\u{1680}"), smt.reRange(0x2000, 0x200A),
            smt.reLiteral("\u{2028}"), smt.reLiteral("\u{2029}"), smt.reLiteral("\u{202F}"), smt.reLiteral("\u{205F}"), smt.reLiteral("\u{3000}"),
            smt.reLiteral("\u{FEFF}"),
        ])
    }

    private func literal(_ c: Character) -> Term {
        let s = String(c)
        if caseInsensitive, s.lowercased() != s.uppercased(), s.count == 1 {
            return smt.reUnion([smt.reLiteral(s.lowercased()), smt.reLiteral(s.uppercased())])
        }
        return smt.reLiteral(s)
    }

    private func range(_ lo: Character, _ hi: Character) -> Term? {
        guard let l = lo.unicodeScalars.first?.value, let h = hi.unicodeScalars.first?.value, l <= h else { return nil }
        var out = [smt.reRange(l, h)]
        if caseInsensitive {
            // The other case of the letters in the range.
            let lower = (max(l, 0x41), min(h, 0x5A))
            if lower.0 <= lower.1 { out.append(smt.reRange(lower.0 + 32, lower.1 + 32)) }
            let upper = (max(l, 0x61), min(h, 0x7A))
            if upper.0 <= upper.1 { out.append(smt.reRange(upper.0 - 32, upper.1 - 32)) }
        }
        return smt.reUnion(out)
    }

    private mutating func characterClass() -> Term? {
        var negated = false
        if peek == "^" {
            negated = true
            i += 1
        }
        var members: [Term] = []
        while let c = peek, c != "]" {
            i += 1
            var item: Term
            var single: Character?
            if c == "\\" {
                guard let e = peek else { return nil }
                i += 1
                if let cls = escape(e) { item = cls } else {
                    single = escapedChar(e)
                    item = literal(escapedChar(e))
                }
            } else {
                single = c
                item = literal(c)
            }
            if let lo = single, peek == "-", i + 1 < chars.count, chars[i + 1] != "]" {
                var hi = chars[i + 1]
                var step = 2
                if hi == "\\", i + 2 < chars.count {
                    if escape(chars[i + 2]) != nil { members.append(item); continue }
                    hi = escapedChar(chars[i + 2])
                    step = 3
                }
                i += step
                guard let r = range(lo, hi) else { return nil }
                item = r
            }
            members.append(item)
        }
        guard peek == "]" else { return nil }
        i += 1
        let union = smt.reUnion(members)
        return negated ? smt.reIntersect(anyChar, smt.reComplement(union)) : union
    }
}
