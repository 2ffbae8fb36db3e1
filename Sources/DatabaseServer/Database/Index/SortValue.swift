import DatabaseRules

/// What a query orders a child by, ordered as the database orders them: null (a missing child)
/// < false < true < numbers < strings (by their UTF-8 bytes) < objects (all equal); keys, when
/// ordering by key, in ``KeyOrder``.
enum SortValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case object
    case key(String)

    /// The value of a node: null when it is missing, `.object` for any object.
    init(_ node: DataNode?) {
        guard let node else { self = .null; return }
        switch node.value {
        case nil: self = .object
        case .bool(let b)?: self = .bool(b)
        case .number(let d)?: self = .number(d)
        case .string(let s)?: self = .string(s)
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .bool(false): 1
        case .bool(true): 2
        case .number: 3
        case .string: 4
        case .object: 5
        case .key: 6
        }
    }

    /// Three-way comparison.
    func compare(_ other: SortValue) -> Int {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.string(let a), .string(let b)): return KeyOrder.compareStringBytes(a, b)
        case (.key(let a), .key(let b)): return KeyOrder.compare(a, b)
        default: return rank == other.rank ? 0 : (rank < other.rank ? -1 : 1)
        }
    }
}
