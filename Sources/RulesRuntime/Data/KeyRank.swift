/// A 128-bit summary of a key that orders as the key does (``KeyOrder``): where two ranks
/// differ, their keys compare as the ranks do. Searches compare ranks (two integer comparisons)
/// and look at a key's bytes only when ranks are equal and do not decide by themselves.
///
/// - An integer key ranks by its value, below every other key, and its rank is its alone.
/// - Any other key ranks by its first 15 bytes (zero-padded) and then its length, with every
///   length from 16 up counted as one. So a key of up to 15 bytes has a rank of its own, and
///   equal ranks are the same key; keys longer than that share a rank when their first 15
///   bytes agree, and their bytes decide.
/// - A key whose first eight bytes, as a big-endian number, are at most 2^32 (it begins with
///   three zero bytes, which no stored key can have but a hand-built tree may) gets the lowest
///   string rank with the rest ignored, and its bytes always decide.
struct KeyRank: Comparable, Hashable, Sendable {
    /// The integer value, offset to be unsigned, below ``KeyOrder/firstStringRank``; or the
    /// first eight bytes, big-endian.
    let high: UInt64
    /// Bytes 8 to 14, big-endian, then the length (255 for 16 bytes or more); 0 for an integer.
    let low: UInt64

    /// Stands for "not computed yet" where ranks are cached. No key has it: it would take eight
    /// 0xFF bytes, which never occur in UTF-8.
    static let unknown = KeyRank(high: .max, low: .max)

    /// Whether equal ranks mean the same key, with no need to compare bytes.
    @inline(__always)
    var decidesEquality: Bool {
        high < KeyOrder.firstStringRank || (high != KeyOrder.firstStringRank && low & 0xFF != 0xFF)
    }

    @inline(__always)
    static func < (a: KeyRank, b: KeyRank) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The rank of a key given by its UTF-8 bytes.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        if let first = bytes.first,
           first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
           let integer = KeyOrder.integerValue(bytes: bytes) {
            self.init(high: UInt64(bitPattern: Int64(integer) &+ 0x8000_0000), low: 0)
            return
        }
        let count = bytes.count
        var high: UInt64 = 0
        var low: UInt64 = 0
        if let base = bytes.baseAddress, count > 0 {
            let raw = UnsafeRawPointer(base)
            // Whole words, big-endian, with overlapping loads for the bytes past a word: a key's
            // bytes are read a word or half-word at a time, never beyond its end.
            if count >= 16 {
                high = raw.loadUnaligned(as: UInt64.self).bigEndian
                low = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian | 0xFF
            } else if count >= 8 {
                high = raw.loadUnaligned(as: UInt64.self).bigEndian
                if count > 8 {
                    // Bytes count-8 ..< count; shifted so that byte 8 is the top byte.
                    let tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self).bigEndian
                    low = tail << UInt64(8 * (16 - count))
                }
                low |= UInt64(count)
            } else if count >= 4 {
                // Bytes 0 ..< 4 and count-4 ..< count (the same bytes where they overlap).
                let head = UInt64(raw.loadUnaligned(as: UInt32.self).bigEndian)
                let tail = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self).bigEndian)
                high = head << 32 | tail << UInt64(64 - 8 * count)
                low = UInt64(count)
            } else {
                var shift: UInt64 = 56
                var i = 0
                while i < count { high |= UInt64(base[i]) << shift; shift &-= 8; i += 1 }
                low = UInt64(count)
            }
        }
        if high <= KeyOrder.firstStringRank {
            self.init(high: KeyOrder.firstStringRank, low: 0)
        } else {
            self.init(high: high, low: low)
        }
    }

    /// The key of a rank that decides equality (``decidesEquality``): an integer's digits, or a
    /// key of up to 15 bytes, which the rank holds whole. A child tree whose keys all have such
    /// ranks keeps no other copy of them.
    var key: String {
        // Any other rank holds only a key's first 15 bytes (its length byte then reads 255).
        precondition(decidesEquality, "the key of a rank that does not hold it whole")
        if high < KeyOrder.firstStringRank {
            return String(Int64(bitPattern: high) &- 0x8000_0000)
        }
        let count = Int(low & 0xFF)
        // Through a typed, contiguous buffer: a key of up to 15 bytes becomes a small string,
        // with no allocation.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { bytes in
            let raw = UnsafeMutableRawPointer(bytes.baseAddress!)
            raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            return String(decoding: UnsafeBufferPointer(start: bytes.baseAddress, count: count), as: UTF8.self)
        }
    }

    /// The rank of a key.
    init(_ key: String) {
        var key = key
        self = key.withUTF8 { KeyRank(bytes: $0) }
    }
}
