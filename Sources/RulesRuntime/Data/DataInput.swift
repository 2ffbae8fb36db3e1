import RulesSyntax

/// A value as a client sends it in a set, update or push, before the server resolves it into a
/// stored ``DataNode``: it may contain nulls and empty objects (which delete), server values and
/// priorities.
///
/// Read one from JSON with ``DataInputReader``, or build one in Swift with literals:
/// `let v: DataInput = ["a": 1, "b": ["c": true], "d": nil]`.
///
/// Equality treats objects as maps: member order does not matter, and when a key appears more
/// than once the last member wins (as in JavaScript's `JSON.parse`). Keys and strings compare by
/// UTF-8 bytes.
public indirect enum DataInput: Sendable, Hashable {
    /// `null`: deletes the location.
    case null
    /// A string, number or boolean.
    case primitive(Primitive)
    /// An object, members in the order given (arrays arrive as objects keyed `"0"`, `"1"`, …).
    case object([(String, DataInput)])
    /// A server value, resolved when the write is applied.
    case serverValue(ServerValue)
    /// A value with a priority: a string or number, `.serverValue(.timestamp)`, or `.null` for
    /// none.
    case withPriority(DataInput, priority: DataInput)

    /// A string value.
    public static func string(_ s: String) -> DataInput { .primitive(.string(s)) }
    /// A number value.
    public static func number(_ d: Double) -> DataInput { .primitive(.number(d)) }
    /// A boolean value.
    public static func bool(_ b: Bool) -> DataInput { .primitive(.bool(b)) }
    /// `{".sv": "timestamp"}`.
    public static var timestamp: DataInput { .serverValue(.timestamp) }
    /// `{".sv": {"increment": n}}`.
    public static func increment(_ n: Double) -> DataInput { .serverValue(.increment(n)) }

    /// The members of an object with duplicates removed (the last wins) and sorted by
    /// ``KeyOrder``; the order a stored node would have.
    static func normalized(_ members: [(String, DataInput)]) -> [(String, DataInput)] {
        if members.count < 2 { return members }
        // Each key's rank is computed once rather than per comparison.
        let ranks = members.map { KeyOrder.rank($0.0) }
        // Fast path: members already strictly increasing (sorted input, exported data).
        var increasing = true
        for i in 1..<members.count where KeyOrder.compare(members[i - 1].0, rank: ranks[i - 1], members[i].0, rank: ranks[i]) >= 0 {
            increasing = false
            break
        }
        if increasing { return members }
        let order = members.indices.sorted { x, y in
            let c = KeyOrder.compare(members[x].0, rank: ranks[x], members[y].0, rank: ranks[y])
            return c != 0 ? c < 0 : x < y
        }
        var out: [(String, DataInput)] = []
        out.reserveCapacity(members.count)
        var lastRank = KeyOrder.unknownRank
        for index in order {
            if let last = out.last, KeyOrder.compare(last.0, rank: lastRank, members[index].0, rank: ranks[index]) == 0 {
                out[out.count - 1] = members[index]
            } else {
                out.append(members[index])
                lastRank = ranks[index]
            }
        }
        return out
    }

    /// Structural equality (objects as maps; see the type's documentation).
    public static func == (lhs: DataInput, rhs: DataInput) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.primitive(let a), .primitive(let b)): return a == b
        case (.serverValue(let a), .serverValue(let b)): return a == b
        case (.withPriority(let a, let p), .withPriority(let b, let q)): return a == b && p == q
        case (.object(let a), .object(let b)):
            let x = normalized(a)
            let y = normalized(b)
            guard x.count == y.count else { return false }
            for (m, n) in zip(x, y) {
                guard KeyOrder.compare(m.0, n.0) == 0, m.1 == n.1 else { return false }
            }
            return true
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .primitive(let p):
            hasher.combine(1 as UInt8)
            hasher.combine(p)
        case .object(let members):
            hasher.combine(2 as UInt8)
            let x = Self.normalized(members)
            hasher.combine(x.count)
            for (key, value) in x {
                hasher.combine(Primitive.string(key))
                hasher.combine(value)
            }
        case .serverValue(let s):
            hasher.combine(3 as UInt8)
            hasher.combine(s)
        case .withPriority(let v, let p):
            hasher.combine(4 as UInt8)
            hasher.combine(v)
            hasher.combine(p)
        }
    }
}

extension DataInput: CustomStringConvertible {
    /// The value in wire format, as compact JSON: server values as `{".sv":…}`, priorities as
    /// `{".value":…,".priority":…}` or a `".priority"` member. Members keep their order.
    public var description: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null:
            out += "null"
        case .primitive(let p):
            out += DataNode.jsonText(p)
        case .serverValue(.timestamp):
            out += #"{".sv":"timestamp"}"#
        case .serverValue(.increment(let n)):
            out += #"{".sv":{"increment":"# + JSONText.number(n) + "}}"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                out += JSONText.quote(key) + ":"
                value.write(to: &out)
            }
            out += "}"
        case .withPriority(.object(let members), let priority):
            out += "{"
            for (key, value) in members {
                out += JSONText.quote(key) + ":"
                value.write(to: &out)
                out += ","
            }
            out += #"".priority":"#
            priority.write(to: &out)
            out += "}"
        case .withPriority(let value, let priority):
            out += #"{".value":"#
            value.write(to: &out)
            out += #",".priority":"#
            priority.write(to: &out)
            out += "}"
        }
    }
}

extension DataInput: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension DataInput: ExpressibleByStringLiteral {
    /// A string literal is a string value.
    public init(stringLiteral value: String) { self = .primitive(.string(value)) }
}

extension DataInput: ExpressibleByIntegerLiteral {
    /// An integer literal is a number value.
    public init(integerLiteral value: Int) { self = .primitive(.number(Double(value))) }
}

extension DataInput: ExpressibleByFloatLiteral {
    /// A float literal is a number value.
    public init(floatLiteral value: Double) { self = .primitive(.number(value)) }
}

extension DataInput: ExpressibleByBooleanLiteral {
    /// A boolean literal is a boolean value.
    public init(booleanLiteral value: Bool) { self = .primitive(.bool(value)) }
}

extension DataInput: ExpressibleByDictionaryLiteral {
    /// A dictionary literal is an object, members in literal order.
    public init(dictionaryLiteral elements: (String, DataInput)...) { self = .object(elements) }
}

extension DataInput: ExpressibleByArrayLiteral {
    /// An array literal is an object keyed `"0"`, `"1"`, … as the database stores arrays.
    public init(arrayLiteral elements: DataInput...) {
        self = .object(elements.enumerated().map { (String($0.offset), $0.element) })
    }
}
