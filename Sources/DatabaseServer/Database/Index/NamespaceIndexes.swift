import DatabaseRules

/// The indexes of one version of a namespace's data, and the queries they answer.
///
/// - Ordering by key (and a plain read's range) needs no index of its own: the children are
///   stored in key order, so a range starts in O(log n).
/// - Ordering by a child or by value uses the index of the location and order, when there is
///   one: the rules must declare it (`.indexOn`), and it is made by the first query that needs it
///   (``ChildIndex/init(order:node:)``) on a location with more than ``minimumChildren``
///   children (a smaller one is scanned as fast). At most ``maxIndexes`` are kept per namespace.
/// - Every other query (by priority, both limits at once, a non-string bound on keys, an order
///   with no index) visits every child, as ``Query/select(_:)`` does.
///
/// Indexes are derived data: never stored, made again after a restart, dropped when the rules
/// stop declaring them, and dropped when a write replaces their location or one above it (the
/// next query makes them again). Every other write updates them (``applying(_:old:new:)``).
struct NamespaceIndexes: Sendable {
    /// Locations with fewer children than this are not indexed.
    static let minimumChildren = 64
    /// Most indexes a namespace keeps.
    static let maxIndexes = 1_000

    /// Which index: a location and an order.
    struct Key: Hashable, Sendable {
        let location: [String]
        let order: Query.Order
    }

    private var indexes: [Key: ChildIndex] = [:]

    /// No index.
    init() {}

    /// The number of indexes.
    var count: Int { indexes.count }

    /// The order a query needs an index for, when it could use one (a child or the value, with a
    /// range or a limit).
    static func indexedOrder(of query: Query) -> Query.Order? {
        guard query.filters else { return nil }
        switch query.order {
        case .child?, .value?: return query.order
        default: return nil
        }
    }

    /// Whether the index is there.
    func contains(_ key: Key) -> Bool { indexes[key] != nil }

    /// The index of `key` for `root`'s data; nil when the location is small (fewer than
    /// ``minimumChildren`` children).
    static func build(_ key: Key, root: DataNode?) -> ChildIndex? {
        let node = DataNode.node(root, at: DataPath(keys: key.location))
        guard let node, node.childCount >= minimumChildren else { return nil }
        return ChildIndex(order: key.order, node: node)
    }

    /// Whether ``build(_:root:)`` and ``install(_:for:)`` would add the index of `key` for
    /// `root`'s data (it is not there, there is room, the location is large enough): O(depth).
    func wouldMake(_ key: Key, root: DataNode?) -> Bool {
        guard indexes[key] == nil, indexes.count < Self.maxIndexes else { return false }
        return (DataNode.node(root, at: DataPath(keys: key.location))?.childCount ?? 0) >= Self.minimumChildren
    }

    /// Adds an index made for the current data, unless the namespace already has
    /// ``maxIndexes``.
    mutating func install(_ index: ChildIndex, for key: Key) {
        guard indexes[key] == nil, indexes.count < Self.maxIndexes else { return }
        indexes[key] = index
    }

    /// Keeps only the indexes for which `keep` holds (the rules changed).
    mutating func retain(where keep: (Key) -> Bool) {
        indexes = indexes.filter { keep($0.key) }
    }

    // MARK: - Writes

    /// Brings every index from the data `old` to `new`, after a write of the shape `shape`:
    /// each changed child's entry moves (O(log n)); an index whose location was written whole (or
    /// above) is dropped.
    mutating func apply(_ shape: WriteShape, old: DataNode?, new: DataNode?) {
        guard !indexes.isEmpty, old !== new else { return }
        let written: [[String]]
        switch shape {
        case .single(let keys): written = [keys]
        case .update(let base, let entries): written = entries.map { base + $0.keys }
        }
        for (key, index) in indexes {
            let l = key.location
            var changed: Set<String> = []
            var dropped = false
            for w in written {
                if w.count > l.count, w.starts(with: l) {
                    changed.insert(w[l.count])
                } else if l.starts(with: w) {
                    dropped = true
                    break
                }
            }
            if dropped {
                indexes[key] = nil
                continue
            }
            guard !changed.isEmpty else { continue }
            let before = DataNode.node(old, at: DataPath(keys: l)), after = DataNode.node(new, at: DataPath(keys: l))
            if before === after { continue }
            var updated = index
            for child in changed {
                let was = before?.child(child), now = after?.child(child)
                if was === now { continue }
                updated = updated.updating(key: child, old: was, new: now)
            }
            indexes[key] = updated
        }
    }

    // MARK: - Queries

    /// The part of the node at `keys` below `root` that `query` selects (``Query/select(_:)``),
    /// from an index when there is one for it.
    func select(_ query: Query, at keys: [String], root: DataNode?) -> DataNode? {
        let node = DataNode.node(root, at: DataPath(keys: keys))
        guard let node, !node.isLeaf, query.filters else { return node }
        if let order = Self.indexedOrder(of: query), let index = indexes[Key(location: keys, order: order)],
           let selected = index.select(query) {
            return DataNode.object(selected.compactMap { key in node.child(key).map { (key, $0) } })
        }
        if query.order == nil || query.order == .key, let pairs = Self.selectByKey(query, node) {
            return DataNode.object(pairs)
        }
        return query.select(node)
    }

    /// The children a query ordered by key keeps, found from the start (or end) of its range in
    /// the stored order; nil when the query is not one this answers (both limits, a bound that
    /// is not a string).
    private static func selectByKey(_ query: Query, _ node: DataNode) -> [(String, DataNode)]? {
        guard !(query.limitToFirst != nil && query.limitToLast != nil) else { return nil }
        let range = query.range
        func key(_ value: SortValue?) -> String?? {
            switch value {
            case nil: return .some(nil)
            case .key(let k)?: return .some(k)
            default: return nil
            }
        }
        guard let low = key(range.low), let high = key(range.high) else { return nil }
        var pairs: [(String, DataNode)] = []
        func entry(_ key: String) -> IndexEntry { IndexEntry(sort: .key(key), key: key) }
        if let n = query.limitToLast {
            guard n > 0 else { return [] }
            node.forEachChildReversed(from: high, inclusive: range.highInclusive) { key, child in
                if range.isBelow(entry(key)) { return false }
                pairs.append((key, child))
                return pairs.count < n
            }
            pairs.reverse()
        } else {
            let n = query.limitToFirst ?? Int.max
            guard n > 0 else { return [] }
            node.forEachChild(from: low, inclusive: range.lowInclusive) { key, child in
                if range.isAbove(entry(key)) { return false }
                pairs.append((key, child))
                return pairs.count < n
            }
        }
        return pairs
    }
}
