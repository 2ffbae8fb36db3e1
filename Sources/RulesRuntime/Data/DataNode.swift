/// One node of the stored database: a leaf holding a ``Primitive``, or an object with at least
/// one child. Immutable, so trees are shared freely between threads and between versions.
///
/// A value of 17 bytes: a leaf's value itself, or a reference to its object's ``ChildTree``. A
/// parent's child tree holds its children's nodes in its own slots, so a leaf costs no
/// allocation of its own (a string leaf longer than 15 bytes keeps its bytes in the string's
/// storage); only a node with a priority, which few have, is boxed.
///
/// A write builds a new tree that **shares** every subtree it does not touch with the old one:
/// ``replacing(_:at:with:)`` copies only the nodes on the written path (and, in each, the
/// ``ChildTree`` nodes that lead to the written child). `null` and `{}` are never stored:
/// absence is `nil`, and an object that loses its last child disappears.
///
/// Trees are expected to be shallow (the database allows 31 levels); very deep trees built by
/// hand are supported but are freed recursively.
public struct DataNode: Sendable {
    /// What a node holds: a leaf's value, an object's children, or (boxed) either with a priority.
    private enum Payload {
        case string(String)
        case number(Double)
        case bool(Bool)
        case object(ChildTree)
        case prioritized(PrioritizedPayload)
    }

    /// (`ManagedBuffer`, which ``ChildTree`` is, cannot declare itself `Sendable`; a tree node is
    /// never written after it is made, except by a writer that holds the only reference to it,
    /// which no other thread can then read: see ``write(_:at:in:)``.)
    nonisolated(unsafe) private let payload: Payload

    /// The value of a leaf; nil for an object.
    public var value: Primitive? {
        switch payload {
        case .string(let s): .string(s)
        case .number(let d): .number(d)
        case .bool(let b): .bool(b)
        case .object: nil
        case .prioritized(let box): box.value
        }
    }

    /// The children of an object, in ``KeyOrder``; nil for a leaf.
    var childTree: ChildTree? {
        switch payload {
        case .object(let tree): tree
        case .prioritized(let box): box.childTree
        default: nil
        }
    }

    /// The priority: a string or a number, or nil.
    public var priority: Primitive? {
        if case .prioritized(let box) = payload { return box.priority }
        return nil
    }

    /// A leaf. A boolean priority is not a valid priority and is dropped.
    public init(leaf: Primitive, priority: Primitive? = nil) {
        if let priority = Self.validPriority(priority) {
            payload = .prioritized(PrioritizedPayload(value: leaf, childTree: nil, priority: priority))
        } else {
            switch leaf {
            case .string(let s): payload = .string(s)
            case .number(let d): payload = .number(d)
            case .bool(let b): payload = .bool(b)
            }
        }
    }

    /// An object over its children.
    init(children: ChildTree, priority: Primitive?) {
        if let priority {
            payload = .prioritized(PrioritizedPayload(value: nil, childTree: children, priority: priority))
        } else {
            payload = .object(children)
        }
    }

    /// The slot of an inner ``ChildTree`` node: a reference to the subtree below it.
    init(subtree: ChildTree) {
        payload = .object(subtree)
    }

    /// The allocation that holds an object's children (or a node's priority), nil for a plain
    /// leaf: what a test watches to see that a tree was freed.
    package var storage: AnyObject? {
        switch payload {
        case .object(let tree): tree
        case .prioritized(let box): box
        default: nil
        }
    }

    /// The children of an object without a priority; nil for a leaf or a node with a priority.
    /// (A writer that changes a tree in place takes it out with this, see ``write(_:at:in:)``.)
    var plainChildTree: ChildTree? {
        if case .object(let tree) = payload { return tree }
        return nil
    }

    /// The subtree of an inner ``ChildTree`` node's slot (made by ``init(subtree:)``).
    var subtree: ChildTree {
        guard case .object(let tree) = payload else { preconditionFailure("not a subtree slot") }
        return tree
    }

    /// Whether two nodes are the same stored node: the same object (the same children's tree and
    /// priority), or leaves with the same value and priority. Cheap, and what writes compare to
    /// tell that nothing changed; ``isEqual(to:)`` compares contents.
    public static func same(_ a: DataNode?, _ b: DataNode?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        switch (a.payload, b.payload) {
        case (.object(let x), .object(let y)): return x === y
        case (.prioritized(let x), .prioritized(let y)) where x === y: return true
        default:
            // Leaves, or nodes with priorities: the same children's tree (or none), priority
            // and value.
            guard a.childTree === b.childTree, a.priority == b.priority else { return false }
            switch (a.value, b.value) {
            case (nil, nil): return true
            // Numbers by their bits: `0` and `-0` are not the same stored value.
            case (.number(let x)?, .number(let y)?): return x.bitPattern == y.bitPattern
            case (let x?, let y?): return x == y
            default: return false
            }
        }
    }

    /// The number of nodes in this subtree, this one included (kept by the children's tree).
    public var count: Int { childTree.map { 1 + $0.nodeCount } ?? 1 }

    /// An object with one child.
    private init(onlyChild child: DataNode, at key: String, rank: KeyRank? = nil, priority: Primitive?) {
        self.init(children: .single(key, rank: rank ?? KeyOrder.rank(key), child), priority: priority)
    }

    /// The children's keys in ``KeyOrder``; empty for a leaf. (Built on each call: keep the
    /// array rather than reading it repeatedly.)
    public var keys: [String] {
        var out: [String] = []
        guard let childTree else { return out }
        out.reserveCapacity(childTree.entryCount)
        childTree.forEach { key, _ in out.append(key) }
        return out
    }

    /// The children, parallel to ``keys``; never empty for an object. (Built on each call.)
    public var children: [DataNode] {
        var out: [DataNode] = []
        guard let childTree else { return out }
        out.reserveCapacity(childTree.entryCount)
        childTree.forEach { _, node in out.append(node) }
        return out
    }

    /// The number of children (0 for a leaf).
    public var childCount: Int { childTree?.entryCount ?? 0 }

    /// The first `limit` child keys, in ``KeyOrder``, without visiting the others.
    public func firstChildKeys(_ limit: Int) -> [String] {
        var out: [String] = []
        childTree?.firstKeys(limit, into: &out)
        return out
    }

    /// Calls `body` with each child's key and node, in ``KeyOrder``.
    public func forEachChild(_ body: (String, DataNode) -> Void) {
        childTree?.forEach(body)
    }

    /// Calls `body` with each child's key and node in ``KeyOrder``, from the child at `start`
    /// (or the first after it; from the first child when `start` is nil; after `start` when not
    /// `inclusive`), until `body` returns false: O(log n) to find the start.
    package func forEachChild(from start: String?, inclusive: Bool = true, _ body: (String, DataNode) -> Bool) {
        childTree?.forEach(from: start.map(KeyProbe.init), inclusive: inclusive, body)
    }

    /// Calls `body` with each child's key and node in reverse ``KeyOrder``, from the child at
    /// `end` (or the last before it; from the last child when `end` is nil; before `end` when
    /// not `inclusive`), until `body` returns false: O(log n) to find the end.
    package func forEachChildReversed(from end: String?, inclusive: Bool = true, _ body: (String, DataNode) -> Bool) {
        childTree?.forEachReversed(from: end.map(KeyProbe.init), inclusive: inclusive, body)
    }

    private static func validPriority(_ p: Primitive?) -> Primitive? {
        guard let p, p.isValidPriority else { return nil }
        return p
    }

    /// An object with the given children, sorted by ``KeyOrder``; nil when `pairs` is empty
    /// (empty objects are never stored). When a key appears twice the last pair wins. Keys are
    /// not validated here (see ``DataPath/validate(key:at:)``).
    public static func object(_ pairs: [(String, DataNode)], priority: Primitive? = nil) -> DataNode? {
        if pairs.isEmpty { return nil }
        let priority = validPriority(priority)
        // Each key's rank is computed once: for the order, and kept in the node.
        let ranks = pairs.map { KeyOrder.rank($0.0) }
        // Fast path: input that is already strictly increasing (the common case when copying or
        // building from sorted data) needs no sort.
        var increasing = true
        var i = 1
        while i < pairs.count {
            if KeyOrder.compare(pairs[i - 1].0, rank: ranks[i - 1], pairs[i].0, rank: ranks[i]) >= 0 { increasing = false; break }
            i += 1
        }
        if increasing {
            return DataNode(children: .build(count: pairs.count) { (pairs[$0].0, ChildSlot(rank: ranks[$0], child: pairs[$0].1)) },
                            priority: priority)
        }
        var order = Array(pairs.indices)
        order.sort { x, y in
            let c = KeyOrder.compare(pairs[x].0, rank: ranks[x], pairs[y].0, rank: ranks[y])
            return c != 0 ? c < 0 : x < y
        }
        var keys: [String] = []
        var sortedRanks: [KeyRank] = []
        var children: [DataNode] = []
        keys.reserveCapacity(pairs.count)
        sortedRanks.reserveCapacity(pairs.count)
        children.reserveCapacity(pairs.count)
        for index in order {
            // Equal keys are adjacent and in input order: the later one replaces the earlier.
            if let last = keys.last, KeyOrder.compare(last, rank: sortedRanks[sortedRanks.count - 1], pairs[index].0, rank: ranks[index]) == 0 {
                children[children.count - 1] = pairs[index].1
            } else {
                keys.append(pairs[index].0)
                sortedRanks.append(ranks[index])
                children.append(pairs[index].1)
            }
        }
        return DataNode(children: .build(keys: keys, ranks: sortedRanks, nodes: children), priority: priority)
    }

    /// Whether this is a leaf.
    public var isLeaf: Bool { value != nil }

    /// Whether this is an object (it then has at least one child).
    public var hasChildren: Bool { childTree != nil }

    /// The child at `key`, or nil (always nil for a leaf). Keys compare by UTF-8 bytes.
    public func child(_ key: String) -> DataNode? {
        child(KeyProbe(key))
    }

    /// The child at a probe's key, or nil.
    func child(_ probe: KeyProbe) -> DataNode? {
        childTree?.find(probe)
    }

    /// The node at a relative path below this one, or nil.
    public func descendant(_ path: some Sequence<String>) -> DataNode? {
        var node = self
        for key in path {
            guard let next = node.child(key) else { return nil }
            node = next
        }
        return node
    }

    /// ``descendant(_:)`` at path `path` of `ranks`, whose keys' ranks are known.
    func descendant(_ keys: [String], ranks: PathRanks, path: Int) -> DataNode? {
        var node = self
        for (depth, key) in keys.enumerated() {
            guard let next = node.child(KeyProbe(key, rank: ranks.rank(path, depth))) else { return nil }
            node = next
        }
        return node
    }

    /// The node at `path` below `root`, or nil.
    public static func node(_ root: DataNode?, at path: DataPath) -> DataNode? {
        root?.descendant(path.keys)
    }

    /// This node with another priority (a boolean priority counts as none). Shares the value and
    /// the children.
    public func withPriority(_ priority: Primitive?) -> DataNode {
        let priority = Self.validPriority(priority)
        if priority == self.priority { return self }
        if let childTree { return DataNode(children: childTree, priority: priority) }
        return DataNode(leaf: value!, priority: priority)
    }

    /// This node with the child at `key` replaced by `child` (nil removes it); nil when the
    /// result would be empty. Returns `self` when nothing changes. A leaf given a child becomes an
    /// object with that one child and keeps its priority (as Firebase does); removing a child of a
    /// leaf changes nothing.
    public func settingChild(_ key: String, to child: DataNode?) -> DataNode? {
        settingChild(KeyProbe(key), to: child)
    }

    /// ``settingChild(_:to:)`` at a probe's key.
    func settingChild(_ probe: KeyProbe, to child: DataNode?) -> DataNode? {
        guard let childTree else {
            guard let child else { return self }
            return DataNode(onlyChild: child, at: probe.key, rank: probe.rank, priority: priority)
        }
        guard let updated = childTree.settingRoot(probe, child) else { return nil }
        if updated === childTree { return self }
        return DataNode(children: updated, priority: priority)
    }

    /// ``settingChild(_:to:)`` for a child that is there, at the slots of `trail` (see
    /// ``ChildTree/find(_:trail:)``): no search, and no rank computed for the key.
    func settingChild(_ key: String, to child: DataNode?, trail: UnsafePointer<Int32>) -> DataNode? {
        guard let childTree else { return settingChild(key, to: child) }
        guard let updated = childTree.settingRoot(KeyProbe(key, rank: KeyOrder.unknownRank), child, trail: trail) else { return nil }
        if updated === childTree { return self }
        return DataNode(children: updated, priority: priority)
    }

    /// The tree with the node at `path` replaced by `node` (nil deletes it).
    ///
    /// Copies only the nodes on `path`; every other subtree of the result is the same object as
    /// in `root`. Ancestors left without children are removed, so the result is nil when the
    /// whole tree becomes empty. When nothing changes (deleting a missing node, or writing the
    /// identical node) the result is `root` itself. Missing ancestors are created; a leaf on the
    /// way is replaced by an object (keeping its priority).
    public static func replacing(_ root: DataNode?, at path: DataPath, with node: DataNode?) -> DataNode? {
        replacing(root, below: path.keys, from: 0, with: node, ranks: nil, path: 0)
    }

    /// The existing nodes on a path below `root`, into `path` (its contents replaced, its
    /// storage kept): `path[i]` is the node at `keys[0..<i]` (nil where nothing is stored), so
    /// `path[keys.count]` is the node at `keys`.
    ///
    /// `ranks[i]` receives the rank of `keys[i]`. `trails` receives, for each level `i` below an existing node, where the child at
    /// `keys[i]` is in that node's child tree: ``ChildTree/maxTrail`` slots from
    /// `i * ChildTree.maxTrail`, as ``ChildTree/find(_:trail:)`` writes them, for
    /// ``replacing(_:along:_:with:newPath:trails:)`` to follow.
    static func pathNodes(_ root: DataNode?, _ keys: [String], into path: inout [DataNode?], trails: inout [Int32], ranks: inout [KeyRank]) {
        path.clearKeepingCapacity()
        path.reserveCapacity(keys.count + 1)
        // Each key's rank, which the search computes anyway (plain values: overwritten, never cleared).
        if ranks.count < keys.count { ranks = [KeyRank](repeating: KeyOrder.unknownRank, count: Swift.max(keys.count, 8)) }
        let stride = ChildTree.maxTrail
        if trails.count < keys.count * stride { trails = [Int32](repeating: -1, count: Swift.max(keys.count, 8) * stride) }
        var current = root
        trails.withUnsafeMutableBufferPointer { trails in
            for (level, key) in keys.enumerated() {
                path.append(current)
                let trail = trails.baseAddress! + level * stride
                trail[0] = -1
                let probe = KeyProbe(key)
                ranks[level] = probe.rank
                current = current?.childTree?.find(probe, trail: trail)
            }
        }
        path.append(current)
    }

    /// ``replacing(_:at:with:)`` with the path's existing nodes already looked up
    /// (``pathNodes(_:_:into:trails:ranks:)`` of the same root and non-empty keys), so a writer that
    /// also needs the node being replaced searches each level once: where a child was found, its
    /// copy follows the trail instead of searching again. `newPath` receives the nodes of the
    /// result along the same path, in the same layout.
    static func replacing(_ root: DataNode?, along path: [DataNode?], _ keys: [String], with node: DataNode?,
                          newPath: inout [DataNode?], trails: [Int32]) -> DataNode? {
        newPath.clearKeepingCapacity()
        newPath.reserveCapacity(path.count)
        // One by one: `append(contentsOf:)` copies optionals through the generic value witness.
        for node in path { newPath.append(node) }
        if keys.isEmpty { newPath[0] = node; return node }
        if path[keys.count] === node { return root }
        newPath[keys.count] = node
        var replacement = node
        var level = keys.count - 1
        while level >= 0 {
            let updated = replacingChild(of: path[level], keys[level], with: replacement, trails: trails, level: level)
            // Nothing changed at this level: nothing changes above it either.
            if updated === path[level] { return root }
            replacement = updated
            newPath[level] = replacement
            level -= 1
        }
        return replacement
    }

    /// One level of a path copy: `parent` (nil where nothing is stored) with its child at `key`
    /// replaced by `child`, following the trail that ``pathNodes(_:_:into:trails:ranks:)`` left for
    /// `level` when the child was found there. Returns `parent` itself when nothing changes.
    static func replacingChild(of parent: DataNode?, _ key: String, with child: DataNode?, trails: [Int32], level: Int) -> DataNode? {
        guard let parent else {
            // No node here: create one only if something is being written below.
            return child.map { DataNode(onlyChild: $0, at: key, priority: nil) }
        }
        return trails.withUnsafeBufferPointer { trails in
            let trail = trails.baseAddress! + level * ChildTree.maxTrail
            return trail[0] >= 0 ? parent.settingChild(key, to: child, trail: trail) : parent.settingChild(key, to: child)
        }
    }

    /// The tree with several nodes replaced at once: the same result as calling
    /// ``replacing(_:at:with:)`` for each entry in turn, but each node on the entries' paths is
    /// copied once, however many entries pass through it (entry by entry would copy a shared
    /// parent's child list once per entry).
    public static func replacing(_ root: DataNode?, entries: [(keys: [String], node: DataNode?)]) -> DataNode? {
        if entries.count == 1 { return replacing(root, at: DataPath(keys: entries[0].keys), with: entries[0].node) }
        let order = pathOrder(entries)
        // A path that is a prefix of the next (or equal to it) makes the order of application
        // matter: apply one by one. (A multi-path update never has such paths; the engine
        // rejects them first.)
        for i in order.indices.dropFirst() where DataPath(keys: entries[order[i - 1]].keys).isPrefix(of: DataPath(keys: entries[order[i]].keys)) {
            var out = root
            for e in entries { out = replacing(out, at: DataPath(keys: e.keys), with: e.node) }
            return out
        }
        return merge(root, entries, PathRanks(entries.lazy.map(\.keys)), order, order.indices, depth: 0)
    }

    /// ``replacing(_:entries:)`` for entries of which none is at or below another's path (as
    /// in an update that was accepted), with their keys' ranks already computed (path `i` of
    /// `ranks` is `entries[i].keys`).
    static func replacing(_ root: DataNode?, disjointEntries entries: [(keys: [String], node: DataNode?)], ranks: PathRanks) -> DataNode? {
        if entries.count == 1 { return replacing(root, below: entries[0].keys, from: 0, with: entries[0].node, ranks: ranks, path: 0) }
        let order = pathOrder(entries)
        return merge(root, entries, ranks, order, order.indices, depth: 0)
    }

    /// The entries' indices sorted by path, key by key in KeyOrder (ties by position): the
    /// entries below one key are then adjacent at every depth.
    private static func pathOrder(_ entries: [(keys: [String], node: DataNode?)]) -> [Int] {
        var order: [Int]
        if entries.count <= 8 {
            // Insertion sort: a few paths (most updates) are ordered in fewer comparisons, and
            // without the general sort's set-up. Stable, so ties keep their positions.
            order = []
            order.reserveCapacity(entries.count)
            for x in entries.indices {
                var at = order.count
                while at > 0 && comparePaths(entries[order[at - 1]].keys, entries[x].keys) > 0 { at -= 1 }
                order.insert(x, at: at)
            }
        } else {
            order = entries.indices.sorted { x, y in
                let c = comparePaths(entries[x].keys, entries[y].keys)
                return c != 0 ? c < 0 : x < y
            }
        }
        return order
    }

    /// Path order: key by key in ``KeyOrder``, a path before the longer paths it starts.
    private static func comparePaths(_ a: [String], _ b: [String]) -> Int {
        var i = 0
        while i < a.count && i < b.count {
            // Paths of one update mostly share their first keys: equal bytes are checked first,
            // and only the first differing key is ordered.
            if !KeyOrder.sameBytes(a[i], b[i]) { return KeyOrder.compare(a[i], b[i]) }
            i += 1
        }
        return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
    }

    /// `base` (the node at the common prefix, of length `depth`, of the entries `order[range]`,
    /// sorted by path, none a prefix of another) with those entries applied; their keys' ranks
    /// are in `ranks`.
    private static func merge(_ base: DataNode?, _ entries: [(keys: [String], node: DataNode?)], _ ranks: PathRanks,
                              _ order: [Int], _ range: Range<Int>, depth: Int) -> DataNode? {
        if range.count == 1 {
            let index = order[range.lowerBound]
            return replacing(base, below: entries[index].keys, from: depth, with: entries[index].node, ranks: ranks, path: index)
        }
        // Every entry goes on through the same key (sorted, so the first and last agree): one
        // child changes, and no list of changes is needed.
        if !range.isEmpty, case let firstIndex = order[range.lowerBound], case let first = entries[firstIndex].keys[depth],
           KeyOrder.sameBytes(first, entries[order[range.upperBound - 1]].keys[depth]) {
            let probe = KeyProbe(first, rank: ranks.rank(firstIndex, depth))
            let child = merge(base?.child(probe), entries, ranks, order, range, depth: depth + 1)
            if let base { return base.settingChild(probe, to: child) }
            return child.map { DataNode(onlyChild: $0, at: first, rank: probe.rank, priority: nil) }
        }
        var changes: [(key: String, rank: KeyRank, node: DataNode?)] = []
        changes.reserveCapacity(range.count)
        var start = range.lowerBound
        while start < range.upperBound {
            let key = entries[order[start]].keys[depth]
            let probe = KeyProbe(key, rank: ranks.rank(order[start], depth))
            var end = start + 1
            while end < range.upperBound, KeyOrder.sameBytes(entries[order[end]].keys[depth], key) { end += 1 }
            changes.append((key, probe.rank, merge(base?.child(probe), entries, ranks, order, start..<end, depth: depth + 1)))
            start = end
        }
        return base.map { $0.settingChildren(changes) } ?? object(changes.compactMap { c in c.node.map { (c.key, $0) } })
    }

    /// `base` (the node at `keys[..<depth]`) with the node at `keys` replaced by `node`: the
    /// single-path copy of ``replacing(_:at:with:)`` from a node below the root. `keys` is path
    /// `path` of `ranks` when given; otherwise each key's rank is computed.
    static func replacing(_ base: DataNode?, below keys: [String], from depth: Int, with node: DataNode?,
                          ranks: PathRanks?, path: Int) -> DataNode? {
        if depth == keys.count { return node }
        let key = keys[depth]
        let probe = ranks.map { KeyProbe(key, rank: $0.rank(path, depth)) } ?? KeyProbe(key)
        let child = replacing(base?.child(probe), below: keys, from: depth + 1, with: node, ranks: ranks, path: path)
        if let base { return base.settingChild(probe, to: child) }
        // No node here: create one only if something is being written below.
        return child.map { DataNode(onlyChild: $0, at: key, rank: probe.rank, priority: nil) }
    }

    /// This node with the children at the sorted, distinct keys of `changes` replaced (nil
    /// removes); the same as calling ``settingChild(_:to:)`` for each, in one pass.
    private func settingChildren(_ changes: [(key: String, rank: KeyRank, node: DataNode?)]) -> DataNode? {
        // A wide object takes each change as a path copy in its child tree (a few per update),
        // rather than a merge that would list every child.
        guard let childTree, childTree.isLeaf, changes.count > 1 else {
            var node: DataNode? = self
            for (i, change) in changes.enumerated() {
                guard let current = node else {
                    // Every child so far was removed: the object is what the remaining changes add.
                    return Self.object(changes[i...].compactMap { c in c.node.map { (c.key, $0) } }, priority: priority)
                }
                node = current.settingChild(KeyProbe(change.key, rank: change.rank), to: change.node)
            }
            return node
        }
        guard let merged = childTree.mergingLeaf(changes) else { return nil }
        if merged === childTree { return self }
        return DataNode(children: merged, priority: priority)
    }

    /// Deep structural equality: the same values (strings by bytes), priorities and children.
    public func isEqual(to other: DataNode) -> Bool {
        if self === other { return true }
        guard value == other.value, priority == other.priority, count == other.count,
              childCount == other.childCount else { return false }
        let keys = self.keys, otherKeys = other.keys
        let children = self.children, otherChildren = other.children
        for i in keys.indices {
            guard KeyOrder.compare(keys[i], otherKeys[i]) == 0,
                  children[i].isEqual(to: otherChildren[i]) else { return false }
        }
        return true
    }
}

/// A node with a priority: its value or its children, and the priority, in one box.
final class PrioritizedPayload: Sendable {
    let value: Primitive?
    /// (See ``DataNode``'s payload.)
    nonisolated(unsafe) let childTree: ChildTree?
    let priority: Primitive

    init(value: Primitive?, childTree: ChildTree?, priority: Primitive) {
        self.value = value
        self.childTree = childTree
        self.priority = priority
    }
}

/// Whether two nodes are the same stored node (``DataNode/same(_:_:)``).
public func === (a: DataNode?, b: DataNode?) -> Bool { DataNode.same(a, b) }

/// Whether two nodes are not the same stored node (``DataNode/same(_:_:)``).
public func !== (a: DataNode?, b: DataNode?) -> Bool { !DataNode.same(a, b) }
