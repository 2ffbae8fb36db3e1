import DatabaseRules

/// The children of one location ordered by a child path or by value: what the rules'
/// `.indexOn` declares there, kept for one version of the data.
///
/// Built once from the location's node (O(n log n)), then kept up to date by each write in
/// O(log n) per child it changes (``updating(key:old:new:)``). A query then costs O(log n + k)
/// for the k children it returns (``select(_:in:)``).
struct ChildIndex: Sendable {
    /// What the children are ordered by: `.child` or `.value`.
    let order: Query.Order
    /// The children's entries.
    private(set) var tree: IndexTree

    /// The index of the children of `node` (nil: no children).
    init(order: Query.Order, node: DataNode?) {
        self.order = order
        var entries: [IndexEntry] = []
        entries.reserveCapacity(node?.childCount ?? 0)
        node?.forEachChild { key, child in entries.append(IndexEntry(sort: Self.sortValue(order, child), key: key)) }
        entries.sort { $0.compare($1) < 0 }
        tree = IndexTree.build(sorted: entries)
    }

    /// What a child is ordered by.
    static func sortValue(_ order: Query.Order, _ child: DataNode?) -> SortValue {
        switch order {
        case .value: SortValue(child)
        case .child(let path): SortValue(child?.descendant(path))
        case .key, .priority: .null
        }
    }

    /// This index after the child at `key` changed from `old` to `new` (nil: absent).
    func updating(key: String, old: DataNode?, new: DataNode?) -> ChildIndex {
        var copy = self
        let before = old.map { IndexEntry(sort: Self.sortValue(order, $0), key: key) }
        let after = new.map { IndexEntry(sort: Self.sortValue(order, $0), key: key) }
        if let before, let after, before.compare(after) == 0 { return self }
        if let before { copy.tree = copy.tree.removing(before) }
        if let after { copy.tree = copy.tree.inserting(after) }
        return copy
    }

    /// The keys a query keeps, in the index's order, or nil when the query is not one this index
    /// answers (both limits at once).
    func select(_ query: Query) -> [String]? {
        guard query.order == order, !(query.limitToFirst != nil && query.limitToLast != nil) else { return nil }
        let range = query.range
        var keys: [String] = []
        if let n = query.limitToLast {
            guard n > 0 else { return [] }
            tree.forEachReversed(from: { range.isAbove($0) }) { entry in
                if range.isBelow(entry) { return false }
                keys.append(entry.key)
                return keys.count < n
            }
            keys.reverse()
        } else {
            let n = query.limitToFirst ?? Int.max
            guard n > 0 else { return [] }
            tree.forEach(from: { range.isBelow($0) }) { entry in
                if range.isAbove(entry) { return false }
                keys.append(entry.key)
                return keys.count < n
            }
        }
        return keys
    }
}
