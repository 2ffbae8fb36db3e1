import DatabaseRules

/// A query on the children of a location: an order, a range and a limit (REST `orderBy`,
/// `startAt`, `endAt`, `equalTo`, `limitToFirst`, `limitToLast`; the SDKs' query listens).
///
/// Children are ordered by the index (a missing child sorts as null; values order null < false <
/// true < numbers < strings < objects; ties by key in ``KeyOrder``), the range is applied, then
/// the limit from the chosen end. REST has no key tie-breaker for a bound, so `startAt: v` keeps
/// every child whose indexed value is `v` or above.
package struct Query: Sendable, Hashable {
    /// What the children are ordered by.
    package enum Order: Sendable, Hashable {
        /// `$key`.
        case key
        /// `$value`.
        case value
        /// `$priority`.
        case priority
        /// A child path, such as `height` or `ratings/pos`.
        case child([String])
    }

    /// A range bound: a primitive or null.
    package enum Bound: Sendable, Hashable {
        /// `null`, meaningful when ordering by a child (missing children sort as null).
        case null
        /// A string, number or boolean.
        case value(Primitive)

        var primitive: Primitive? {
            if case .value(let p) = self { return p }
            return nil
        }
    }

    /// A key tie-breaker of a bound: among children with the bound's value, which keys are in
    /// range (the SDKs' `startAt(value, key)`; `[MIN_NAME]` and `[MAX_NAME]` on the wire).
    package enum Name: Sendable, Hashable {
        /// Before every key.
        case min
        /// After every key.
        case max
        /// This key.
        case key(String)
    }

    /// The order (nil for a plain read).
    package var order: Order?
    /// The lowest indexed value kept.
    package var startAt: Bound?
    /// Which keys at the start value are kept (from this one on).
    package var startName: Name = .min
    /// Whether the start itself is kept (false for the SDKs' `startAfter`).
    package var startInclusive = true
    /// The highest indexed value kept.
    package var endAt: Bound?
    /// Which keys at the end value are kept (up to this one).
    package var endName: Name = .max
    /// Whether the end itself is kept (false for the SDKs' `endBefore`).
    package var endInclusive = true
    /// Keep only this indexed value.
    package var equalTo: Bound?
    /// Keep the first N of the range.
    package var limitToFirst: Int?
    /// Keep the last N of the range.
    package var limitToLast: Int?

    /// A plain read: no order, range or limit.
    package init(order: Order? = nil, startAt: Bound? = nil, endAt: Bound? = nil, equalTo: Bound? = nil,
                limitToFirst: Int? = nil, limitToLast: Int? = nil) {
        self.order = order
        self.startAt = startAt
        self.endAt = endAt
        self.equalTo = equalTo
        self.limitToFirst = limitToFirst
        self.limitToLast = limitToLast
    }

    /// Whether this is a plain read.
    package var isPlain: Bool { order == nil && startAt == nil && endAt == nil && equalTo == nil && limitToFirst == nil && limitToLast == nil }

    /// Whether it can leave children out (a range or a limit).
    package var filters: Bool { startAt != nil || endAt != nil || equalTo != nil || limitToFirst != nil || limitToLast != nil }

    /// The index this query needs in the rules' `.indexOn` at the location: the child path, or
    /// `.value`; nil for `$key` and `$priority`, which need none.
    package var requiredIndex: String? {
        switch order {
        case .value?: ".value"
        case .child(let path)?: path.joined(separator: "/")
        default: nil
        }
    }

    /// What the rules see as `query` (spec §4.3). A read without an order is ordered by key.
    package var ruleParameters: QueryParameters {
        var p = QueryParameters(orderByKey: true)
        switch order {
        case nil, .key?: break
        case .value?: p.orderByKey = false; p.orderByValue = true
        case .priority?: p.orderByKey = false; p.orderByPriority = true
        case .child(let path)?: p.orderByKey = false; p.orderByChild = path.joined(separator: "/")
        }
        if let startAt, startAt == endAt, startInclusive, endInclusive, equalTo == nil {
            p.equalTo = startAt.primitive
        } else {
            p.startAt = startAt?.primitive
            p.endAt = endAt?.primitive
            p.equalTo = equalTo?.primitive
        }
        p.limitToFirst = limitToFirst.map(Double.init)
        p.limitToLast = limitToLast.map(Double.init)
        return p
    }

    /// The part of `node` this query selects: a leaf is returned whole; an object keeps the
    /// children in the range and the limit (nil when none remain).
    package func select(_ node: DataNode?) -> DataNode? {
        guard let node, !node.isLeaf, filters else { return node }
        var entries: [(key: String, child: DataNode, sort: SortValue)] = []
        entries.reserveCapacity(node.childCount)
        node.forEachChild { key, child in entries.append((key, child, sortValue(key: key, child: child))) }
        if order != .key {
            entries.sort { a, b in
                let c = a.sort.compare(b.sort)
                return c != 0 ? c < 0 : KeyOrder.less(a.key, b.key)
            }
        }
        let low = equalTo ?? startAt, high = equalTo ?? endAt
        let lowName = equalTo != nil ? Name.min : startName, highName = equalTo != nil ? Name.max : endName
        let lowInclusive = equalTo != nil || startInclusive, highInclusive = equalTo != nil || endInclusive
        var kept = entries.filter { entry in
            if let low {
                let c = compare(entry, boundValue(low), lowName)
                if c < 0 || (c == 0 && !lowInclusive) { return false }
            }
            if let high {
                let c = compare(entry, boundValue(high), highName)
                if c > 0 || (c == 0 && !highInclusive) { return false }
            }
            return true
        }
        if let n = limitToFirst, kept.count > n { kept = Array(kept.prefix(n)) }
        if let n = limitToLast, kept.count > n { kept = Array(kept.suffix(n)) }
        return DataNode.object(kept.map { ($0.key, $0.child) })
    }

    /// Compares a child with a bound: by indexed value, then by key against the bound's name
    /// (ordering by key compares the key with the bound value alone).
    private func compare(_ entry: (key: String, child: DataNode, sort: SortValue), _ value: SortValue, _ name: Name) -> Int {
        let c = entry.sort.compare(value)
        if c != 0 || order == .key || order == nil { return c }
        switch name {
        case .min: return 1
        case .max: return -1
        case .key(let key): return KeyOrder.compare(entry.key, key)
        }
    }

    /// The indexed value of a child.
    func sortValue(key: String, child: DataNode) -> SortValue {
        switch order {
        case nil, .key?: return .key(key)
        case .priority?:
            switch child.priority {
            case nil: return .null
            case .number(let d)?: return .number(d)
            case .string(let s)?: return .string(s)
            case .bool(let b)?: return .bool(b)
            }
        case .value?: return SortValue(child)
        case .child(let path)?: return SortValue(child.descendant(path))
        }
    }

    private func boundValue(_ bound: Bound) -> SortValue {
        if order == .key || order == nil {
            if case .value(.string(let s)) = bound { return .key(s) }
        }
        switch bound {
        case .null: return .null
        case .value(.bool(let b)): return .bool(b)
        case .value(.number(let d)): return .number(d)
        case .value(.string(let s)): return .string(s)
        }
    }

    /// An indexed value, ordered as the database orders them.
    enum SortValue {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case object
        case key(String)

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

        func compare(_ other: SortValue) -> Int {
            switch (self, other) {
            case (.number(let a), .number(let b)): return a < b ? -1 : (a > b ? 1 : 0)
            case (.string(let a), .string(let b)):
                let x = Array(a.utf8), y = Array(b.utf8)
                return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
            case (.key(let a), .key(let b)): return KeyOrder.compare(a, b)
            default: return rank == other.rank ? 0 : (rank < other.rank ? -1 : 1)
            }
        }
    }
}
