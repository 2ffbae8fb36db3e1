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
    /// children in the range and the limit (nil when none remain). Every child is visited
    /// (``NamespaceIndexes`` answers the queries that have an index without doing so).
    package func select(_ node: DataNode?) -> DataNode? {
        guard let node, !node.isLeaf, filters else { return node }
        var entries: [(entry: IndexEntry, child: DataNode)] = []
        entries.reserveCapacity(node.childCount)
        node.forEachChild { key, child in entries.append((IndexEntry(sort: sortValue(key: key, child: child), key: key), child)) }
        if order != .key && order != nil {
            entries.sort { $0.entry.compare($1.entry) < 0 }
        }
        let range = self.range
        var kept = entries.filter { !range.isBelow($0.entry) && !range.isAbove($0.entry) }
        if let n = limitToFirst, kept.count > n { kept = Array(kept.prefix(n)) }
        if let n = limitToLast, kept.count > n { kept = Array(kept.suffix(n)) }
        return DataNode.object(kept.map { ($0.entry.key, $0.child) })
    }

    /// The query's range (``equalTo`` or ``startAt``/``endAt`` with their names and
    /// inclusiveness), as tests on indexed entries.
    var range: QueryRange {
        let byKey = order == .key || order == nil
        if let equalTo {
            let value = boundValue(equalTo)
            return QueryRange(byKey: byKey, low: value, lowName: .min, lowInclusive: true, high: value, highName: .max, highInclusive: true)
        }
        return QueryRange(byKey: byKey, low: startAt.map(boundValue), lowName: startName, lowInclusive: startInclusive,
                          high: endAt.map(boundValue), highName: endName, highInclusive: endInclusive)
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
}
