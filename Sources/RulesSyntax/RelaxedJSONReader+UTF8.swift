extension RelaxedJSONReader {
    /// The offset of the first byte that is not part of a well-formed UTF-8 sequence, or nil
    /// when all of `bytes` is valid UTF-8.
    ///
    /// Overlong forms, encoded surrogates and scalars above U+10FFFF are invalid. For a sequence
    /// cut short, the lead byte is reported.
    static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
        // The standard library's validator is optimised even in debug builds; the byte-level
        // scan below only runs to locate the offending byte.
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        return bytes.withUnsafeBufferPointer { b -> Int? in
            let n = b.count
            var i = 0
            while i < n {
                let lead = b[i]
                if lead < 0x80 {
                    i += 1
                    continue
                }
                let length: Int
                // The allowed range of the second byte narrows for E0, ED, F0 and F4 so that
                // overlong forms, surrogates and values above U+10FFFF are excluded.
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return i
                }
                guard i + length <= n else { return i }
                let second = b[i + 1]
                guard second >= low, second <= high else { return i }
                var k = 2
                while k < length {
                    guard b[i + k] & 0xC0 == 0x80 else { return i }
                    k += 1
                }
                i += length
            }
            return nil
        }
    }
}
