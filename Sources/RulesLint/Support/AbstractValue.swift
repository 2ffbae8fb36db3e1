import RulesCompiler
import RulesSyntax

/// What the linter's abstract evaluation knows about one value of a rule expression: its possible
/// shapes and whether computing it may fail with a runtime error (which makes a rule not true).
struct AbstractValue {
    /// The runtime types a value may have.
    struct Types: OptionSet, Hashable {
        let rawValue: UInt8
        static let null = Types(rawValue: 1)
        static let boolean = Types(rawValue: 2)
        static let number = Types(rawValue: 4)
        static let string = Types(rawValue: 8)
        static let object = Types(rawValue: 16)
        static let any: Types = [.null, .boolean, .number, .string, .object]

        /// "a string", "a string or null", "any value".
        var phrase: String {
            if self == .any { return "any value" }
            var parts: [String] = []
            if contains(.string) { parts.append("a string") }
            if contains(.number) { parts.append("a number") }
            if contains(.boolean) { parts.append("a boolean") }
            if contains(.object) { parts.append("an object") }
            if contains(.null) { parts.append("null") }
            return parts.joined(separator: " or ")
        }
    }

    /// A snapshot: where it points, as far as that is known.
    struct Snapshot: Hashable {
        /// `root`, `data` or `newData`.
        var base: String
        /// Child keys below the base (`..` for a `parent()` that climbs above it); nil when a
        /// computed path makes it unknown.
        var segments: [String]?
        /// The depth in the tree (0 for `/`), when known.
        var depth: Int?
    }

    /// The possible shapes.
    enum Shape {
        /// A known non-boolean primitive.
        case constant(ConstantFolder.Constant)
        /// A boolean that may be true, false, or both.
        case boolean(canTrue: Bool, canFalse: Bool)
        /// A snapshot.
        case snapshot(Snapshot)
        /// The key bound to a `$wildcard`.
        case wildcard(String)
        /// `val()` of a snapshot.
        case value(Snapshot)
        /// Some value of these types.
        case unknown(Types)
        /// `query`, a method before its call, a literal argument.
        case other
    }

    /// nil when evaluation always fails with a runtime error.
    var shape: Shape?
    /// True when evaluation may fail with a runtime error.
    var mayError: Bool

    static let failure = AbstractValue(shape: nil, mayError: true)

    static func bool(_ b: Bool) -> AbstractValue { AbstractValue(shape: .boolean(canTrue: b, canFalse: !b), mayError: false) }

    static func unknownBool(mayError: Bool) -> AbstractValue { AbstractValue(shape: .boolean(canTrue: true, canFalse: true), mayError: mayError) }

    static func unknown(_ t: Types, mayError: Bool = false) -> AbstractValue { AbstractValue(shape: .unknown(t), mayError: mayError) }

    /// The outcomes of a boolean: can it be true, can it be false, can it fail.
    var outcomes: (canTrue: Bool, canFalse: Bool, mayError: Bool) {
        switch shape {
        case nil: (false, false, true)
        case .boolean(let t, let f)?: (t, f, mayError)
        default: (true, true, mayError)
        }
    }

    /// True when the value is always true and never fails.
    var isAlwaysTrue: Bool { let o = outcomes; return o.canTrue && !o.canFalse && !o.mayError }

    /// True when the value is never true (false, or a runtime error).
    var isNeverTrue: Bool { !outcomes.canTrue }

    /// The runtime types the value may have.
    var types: Types {
        switch shape {
        case nil: []
        case .constant(let c)?: Self.type(of: c)
        case .boolean?: .boolean
        case .wildcard?: .string
        case .unknown(let t)?: t
        case .value?, .snapshot?, .other?: .any
        }
    }

    /// The value as a constant, when it is one (booleans included).
    var constant: ConstantFolder.Constant? {
        switch shape {
        case .constant(let c)?: c
        case .boolean(let t, let f)? where t != f: .bool(t)
        default: nil
        }
    }

    static func type(of c: ConstantFolder.Constant) -> Types {
        switch c {
        case .null: .null
        case .bool: .boolean
        case .number: .number
        case .string: .string
        }
    }
}
