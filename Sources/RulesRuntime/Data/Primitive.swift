/// A stored leaf value.
///
/// The Realtime Database stores strings, numbers (IEEE-754 doubles) and booleans; `null` is the
/// absence of a node and never a stored value.
///
/// Equality and hashing compare strings by their UTF-8 bytes, as the database does, and not by
/// Swift's Unicode canonical equivalence: `"é"` (U+00E9) and `"e\u{301}"` are different values.
public enum Primitive: Sendable, Hashable {
    /// A UTF-8 string.
    case string(String)
    /// An IEEE-754 double. Integers are doubles too: `1` and `1.0` are the same number.
    case number(Double)
    /// A boolean.
    case bool(Bool)

    /// Compares by kind, then by UTF-8 bytes for strings and by `==` for numbers (`0 == -0`).
    public static func == (lhs: Primitive, rhs: Primitive) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): KeyOrder.compare(a, b) == 0
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        default: false
        }
    }

    /// Hashes the kind and the value (strings by their UTF-8 bytes).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s):
            hasher.combine(0 as UInt8)
            hasher.combine(s.utf8.count)
            let done: Void? = s.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            if done == nil {
                for byte in s.utf8 { hasher.combine(byte) }
            }
        case .number(let d):
            hasher.combine(1 as UInt8)
            hasher.combine(d)
        case .bool(let b):
            hasher.combine(2 as UInt8)
            hasher.combine(b)
        }
    }

    /// Whether this may be a priority: only strings and numbers can.
    public var isValidPriority: Bool {
        switch self {
        case .string, .number: true
        case .bool: false
        }
    }
}
