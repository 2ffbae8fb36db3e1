/// String operations with the server's semantics rather than Swift's: comparison by code units
/// with no Unicode normalisation (Swift's `==` treats "é" and "e\u{301}" as equal; rules do not).
///
/// Lengths and ordering count UTF-16 code units, as the server's JVM strings do (see
/// docs/decisions.md). Searching works on UTF-8 bytes, which gives the same answers for valid text.
package enum StringSemantics {
    /// Equality of the code units.
    @inline(__always)
    package static func equal(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                x.count == y.count && (x.count == 0 || memcmpEqual(x, y))
            }
        }
    }

    @inline(__always)
    private static func memcmpEqual(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<x.count where x[i] != y[i] { return false }
        return true
    }

    /// -1, 0 or 1: lexicographic order of UTF-16 code units.
    package static func compare(_ a: String, _ b: String) -> Int {
        var ia = a.utf16.makeIterator()
        var ib = b.utf16.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?):
                if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// True when `s` contains `part`.
    package static func contains(_ s: String, _ part: String) -> Bool {
        // Searches the strings' own UTF-8 storage: no copies.
        var s = s, part = part
        return s.withUTF8 { hay in part.withUTF8 { needle in find(hay, needle, from: 0) != nil } }
    }

    /// True when `s` starts with `prefix`.
    package static func beginsWith(_ s: String, _ prefix: String) -> Bool {
        s.utf8.starts(with: prefix.utf8)
    }

    /// True when `s` ends with `suffix`.
    package static func endsWith(_ s: String, _ suffix: String) -> Bool {
        let a = s.utf8, b = suffix.utf8
        guard b.count <= a.count else { return false }
        return a.dropFirst(a.count - b.count).elementsEqual(b)
    }

    /// The UTF-8 length of `replaceAll(s, target, with: replacement)`, computed without building
    /// it (so that a result over ``DataLimits/maxStringBytes`` is refused before it is allocated).
    package static func replacedLength(_ s: String, _ target: String, with replacement: String) -> Int {
        let n = s.utf8.count, r = replacement.utf8.count
        if target.isEmpty {
            // The replacement goes before every scalar and at the end.
            let scalars = s.unicodeScalars.count
            let (product, overflow) = (scalars + 1).multipliedReportingOverflow(by: r)
            return overflow ? Int.max : n + product
        }
        var s = s, target = target
        let count = s.withUTF8 { hay in
            target.withUTF8 { needle in
                var found = 0, i = 0
                while let at = find(hay, needle, from: i) {
                    found += 1
                    i = at + needle.count
                }
                return found
            }
        }
        let (product, overflow) = count.multipliedReportingOverflow(by: r - target.utf8.count)
        return overflow ? Int.max : n + product
    }

    /// Every occurrence of `target` replaced by `replacement` (a plain substring, not a pattern).
    /// An empty target inserts the replacement around every character, as the JVM's `replace` does.
    package static func replaceAll(_ s: String, _ target: String, with replacement: String) -> String {
        if target.isEmpty {
            var out = replacement
            for ch in s.unicodeScalars {
                out.unicodeScalars.append(ch)
                out += replacement
            }
            return out
        }
        let hay = Array(s.utf8), needle = Array(target.utf8), rep = Array(replacement.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(hay.count)
        var i = 0
        while let at = find(hay, needle, from: i) {
            out.append(contentsOf: hay[i..<at])
            out.append(contentsOf: rep)
            i = at + needle.count
        }
        out.append(contentsOf: hay[i...])
        return String(decoding: out, as: UTF8.self)
    }

    /// Lower case (ASCII fast path, Unicode otherwise).
    package static func lowercase(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: s.utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return s.lowercased()
    }

    /// Upper case (ASCII fast path, Unicode otherwise).
    package static func uppercase(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: s.utf8.map { ($0 >= 97 && $0 <= 122) ? $0 - 32 : $0 }, as: UTF8.self)
        }
        return s.uppercased()
    }

    /// The first index at or after `from` where `needle` occurs in `hay`.
    static func find<C: RandomAccessCollection<UInt8>>(_ hay: C, _ needle: C, from: Int) -> Int? where C.Index == Int {
        if needle.isEmpty { return from <= hay.count ? from : nil }
        guard hay.count >= needle.count else { return nil }
        let first = needle[0]
        var i = from
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == first {
                var j = 1
                while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
