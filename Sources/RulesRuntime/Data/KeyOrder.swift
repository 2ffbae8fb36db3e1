/// The order of child keys in the Realtime Database (Firebase's "order by key").
///
/// Keys that are integers come first, in numeric order; all other keys follow, in lexicographic
/// order of their **UTF-8 bytes**. Firebase documents the second group only as "lexicographic";
/// the JavaScript SDK compares UTF-16 code units, which differs from byte order only between
/// characters above U+FFFF and those in U+E000–U+FFFF. Byte order is chosen here because it is
/// exact, fast and independent of Unicode normalisation.
///
/// A key counts as an integer only in its canonical decimal spelling within the signed 32-bit
/// range: `"0"`, `"7"`, `"-5"`, `"2147483647"`, `"-2147483648"`. Leading zeros (`"007"`), a plus
/// sign (`"+1"`), `"-0"` and values outside `Int32` are ordinary string keys.
package enum KeyOrder {
    /// The key's integer value when it is a canonical decimal 32-bit signed integer, else nil.
    package static func integerValue(_ key: String) -> Int32? {
        var key = key
        return key.withUTF8 { integerValue(bytes: $0) }
    }

    /// Whether `a` sorts before `b`.
    package static func less(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Three-way comparison: negative when `a` sorts before `b`, zero when they are the same key
    /// (the same bytes), positive when `a` sorts after `b`.
    package static func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                compare(bytes: pa, integer: integerValue(bytes: pa), bytes: pb, integer: integerValue(bytes: pb))
            }
        }
    }

    /// Whether two keys have the same UTF-8 bytes (`==` on `String` also accepts canonically
    /// equivalent spellings, which are different keys).
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let direct = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb in compareBytes(pa, pb) == 0 }
        }
        if let direct, let same = direct { return same }
        return compare(a, b) == 0
    }

    /// Three-way comparison with the integer values already known (see ``integerValue(_:)``).
    static func compare(bytes a: UnsafeBufferPointer<UInt8>, integer ia: Int32?,
                        bytes b: UnsafeBufferPointer<UInt8>, integer ib: Int32?) -> Int {
        switch (ia, ib) {
        case (let x?, let y?): return x < y ? -1 : (x == y ? 0 : 1)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return compareBytes(a, b)
        }
    }

    /// Lexicographic comparison of two byte strings, eight bytes at a time (keys are short and
    /// often share a long prefix, as push keys and zero-padded numbers do).
    @inline(__always)
    static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = Swift.min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            var i = 0
            while i &+ 8 <= n {
                // Big-endian words compare as their bytes do.
                let x = UnsafeRawPointer(pa + i).loadUnaligned(as: UInt64.self).bigEndian
                let y = UnsafeRawPointer(pb + i).loadUnaligned(as: UInt64.self).bigEndian
                if x != y { return x < y ? -1 : 1 }
                i &+= 8
            }
            while i < n {
                let x = pa[i], y = pb[i]
                if x != y { return x < y ? -1 : 1 }
                i &+= 1
            }
        }
        return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
    }

    /// The canonical-integer test on UTF-8 bytes.
    static func integerValue(bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let count = bytes.count
        // "-2147483648" is the longest canonical spelling: 11 bytes.
        guard count > 0, count <= 11 else { return nil }
        var i = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        guard i < count else { return nil }
        let first = bytes[i]
        guard first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") {
            // "0" alone is canonical; "-0" and "007" are not.
            return (count == 1) ? 0 : nil
        }
        var value: Int64 = 0
        while i < count {
            let c = bytes[i]
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            // At most 10 digits, so this cannot overflow Int64.
            value = value * 10 + Int64(c - UInt8(ascii: "0"))
            i += 1
        }
        if negative { value = -value }
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        return Int32(value)
    }

    // MARK: - Ranks

    /// The smallest ``KeyRank/high`` of a key that is not an integer; integer keys rank below it.
    static let firstStringRank: UInt64 = 1 << 32

    /// ``KeyRank`` of a key given by its UTF-8 bytes.
    @inline(__always)
    static func rank(bytes: UnsafeBufferPointer<UInt8>) -> KeyRank { KeyRank(bytes: bytes) }

    /// ``KeyRank`` of a key.
    @inline(__always)
    static func rank(_ key: String) -> KeyRank { KeyRank(key) }

    /// Stands for "not computed yet" where ranks are cached (``KeyRank/unknown``).
    static let unknownRank = KeyRank.unknown

    /// Three-way ``KeyOrder`` comparison of keys with their ranks (``rank(bytes:)``): the ranks
    /// decide unless they are equal; then a rank that decides equality (an integer key, a key
    /// of up to 15 bytes) means the same key, and other keys are compared by their bytes.
    static func compare(_ a: String, rank ra: KeyRank, _ b: String, rank rb: KeyRank) -> Int {
        if ra != rb { return ra < rb ? -1 : 1 }
        if ra.decidesEquality { return 0 }
        // Equal ranks that do not decide belong to keys that are not integers: their bytes
        // decide, with no integer test.
        return compareStringBytes(a, b)
    }

    /// Byte order of two keys known not to be integers (or compared for equality only).
    package static func compareStringBytes(_ a: String, _ b: String) -> Int {
        let direct = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb in compareBytes(pa, pb) }
        }
        if let direct, let c = direct { return c }
        var a = a
        var b = b
        return a.withUTF8 { pa in b.withUTF8 { pb in compareBytes(pa, pb) } }
    }
}

/// A key being looked up, with its ``KeyRank`` computed once for every level of a
/// tree it is searched in.
struct KeyProbe {
    let key: String
    let rank: KeyRank

    init(_ key: String) {
        self.key = key
        self.rank = KeyOrder.rank(key)
    }

    /// A probe whose rank is already known (a constant key of the rules).
    init(_ key: String, rank: KeyRank) {
        self.key = key
        self.rank = rank
    }
}
