/// The pieces of a JSON string's escapes that every reader of JSON text here shares: the
/// one-character escapes, hex digits, and how a `\u` pair of surrogates makes one scalar.
package enum JSONEscape {
    /// The byte a one-character escape stands for (`\n` → 0x0A), or nil for `u` and invalid ones.
    @inline(__always)
    static func simple(_ e: UInt8) -> UInt8? {
        switch e {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of an ASCII hex digit, or nil.
    @inline(__always)
    package static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether a `\u` value is a high surrogate (it must be followed by an escaped low one).
    static func isHighSurrogate(_ value: UInt32) -> Bool { value >= 0xD800 && value <= 0xDBFF }

    /// Whether a `\u` value is a low surrogate.
    static func isLowSurrogate(_ value: UInt32) -> Bool { value >= 0xDC00 && value <= 0xDFFF }

    /// The scalar value of a high and a low surrogate.
    static func combine(high: UInt32, low: UInt32) -> UInt32 {
        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }
}
