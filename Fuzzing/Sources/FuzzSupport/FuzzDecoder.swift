import DatabaseRules

/// Turns fuzz bytes into structured values: each choice consumes a byte, and running out of
/// bytes gives zeros, so every input decodes to something and small mutations make small changes.
public struct FuzzDecoder {
    let bytes: [UInt8]
    var index = 0
    /// Words that key and string choices draw from (the rules' own keys and constants first).
    public let words: [String]

    /// Creates a decoder over `bytes` drawing keys and strings from `words`.
    public init(_ bytes: [UInt8], words: [String]) {
        self.bytes = bytes
        self.words = words.isEmpty ? ["a"] : words
    }

    /// True when every byte has been used.
    public var isAtEnd: Bool { index >= bytes.count }

    /// The bytes not consumed yet.
    public var remaining: [UInt8] { index < bytes.count ? Array(bytes[index...]) : [] }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number in `0..<n` (0 when `n` < 2).
    public mutating func below(_ n: Int) -> Int {
        n < 2 ? 0 : Int(byte()) % n
    }

    /// A boolean.
    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `items` (which must not be empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Up to 16 raw bytes as text (invalid UTF-8 is repaired, as `String(decoding:)` does).
    public mutating func rawString() -> String {
        let length = below(17)
        var out: [UInt8] = []
        for _ in 0..<length where !isAtEnd { out.append(byte()) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A word most of the time, raw text sometimes.
    public mutating func word() -> String {
        below(8) == 0 ? rawString() : pick(words)
    }

    /// Numbers that sit on the edges rules and JSON care about.
    public static let numbers: [Double] = [
        0, 1, -1, 2, 0.5, -0.0, 40, 100, 1e21, 1e-7, 9_007_199_254_740_992, 1_700_000_000_000,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, .nan, 3, 10, 255, 1e300,
    ]

    /// A number from ``numbers`` or built from the next byte.
    public mutating func number() -> Double {
        below(2) == 0 ? pick(Self.numbers) : Double(Int8(bitPattern: byte()))
    }

    /// A primitive.
    public mutating func primitive() -> Primitive {
        switch below(3) {
        case 0: .bool(bool())
        case 1: .number(number())
        default: .string(word())
        }
    }

    /// A value as a client sends it, at most `depth` levels of objects deep.
    public mutating func dataInput(depth: Int) -> DataInput {
        switch below(12) {
        case 0: return .null
        case 1, 2, 3: return .primitive(primitive())
        case 4: return .timestamp
        case 5: return .increment(number())
        case 6:
            let priority: DataInput = below(2) == 0 ? .primitive(primitive()) : .timestamp
            return .withPriority(depth > 0 ? dataInput(depth: depth - 1) : .primitive(primitive()), priority: priority)
        default:
            guard depth > 0 else { return .primitive(primitive()) }
            var members: [(String, DataInput)] = []
            for _ in 0..<below(5) {
                members.append((word(), dataInput(depth: depth - 1)))
            }
            return .object(members)
        }
    }

    /// A slash-separated path of up to `maxKeys` words, sometimes raw text.
    public mutating func path(maxKeys: Int = 5) -> String {
        if below(16) == 0 { return rawString() }
        var keys: [String] = []
        for _ in 0..<below(maxKeys + 1) { keys.append(word()) }
        let text = keys.joined(separator: "/")
        return bool() ? "/" + text : text
    }

    /// Query parameters (often none).
    public mutating func query() -> QueryParameters {
        guard bool() else { return .none }
        var q = QueryParameters()
        switch below(4) {
        case 0: q.orderByKey = true
        case 1: q.orderByPriority = true
        case 2: q.orderByValue = true
        default: q.orderByChild = path(maxKeys: 2)
        }
        if bool() { q.startAt = primitive() }
        if bool() { q.endAt = primitive() }
        if bool() { q.equalTo = primitive() }
        if bool() { q.limitToFirst = number() }
        if bool() { q.limitToLast = number() }
        return q
    }

    /// An auth value: signed out, a user, a user with claims, or something odd.
    public mutating func auth() -> AuthValue {
        switch below(6) {
        case 0: return .null
        case 1, 2: return .user(uid: word())
        case 3:
            var claims: [String: AuthValue] = [:]
            for _ in 0..<below(4) { claims[word()] = authLeaf() }
            return .user(uid: word(), provider: word(), claims: claims)
        case 4: return authLeaf()
        default:
            return .object(["uid": authLeaf(), "token": .object([word(): authLeaf()])])
        }
    }

    mutating func authLeaf() -> AuthValue {
        switch below(5) {
        case 0: .null
        case 1: .bool(bool())
        case 2: .number(number())
        case 3: .array([.string(word())])
        default: .string(word())
        }
    }

    /// An operation on the tree.
    public mutating func operation() -> DatabaseOperation {
        switch below(5) {
        case 0: return .read(path: path(), query: query())
        case 1: return .set(path: path(), value: dataInput(depth: 4))
        case 2:
            var values: [(String, DataInput)] = []
            for _ in 0..<below(5) { values.append((path(maxKeys: 3), dataInput(depth: 3))) }
            return .update(path: path(maxKeys: 3), values: values)
        case 3: return .delete(path: path())
        default: return .push(path: path(maxKeys: 3), value: dataInput(depth: 3), key: word())
        }
    }
}
