/// The children of a wide object (more than ``maxLeaf`` of them): a persistent B+ tree in
/// ``KeyOrder``. Immutable; an update copies only the small nodes on one root-to-leaf path
/// (at most ``maxLeaf`` or ``maxInner`` entries each), so writing under a node with a million
/// children costs about as much as under one with a hundred. Without it every write copied the
/// whole key and child arrays of each wide ancestor, and grew with the database.
final class ChildTree: Sendable {
    /// Most entries in a leaf; a leaf that grows past it splits in two.
    static let maxLeaf = 32
    /// Most subtrees under an inner node.
    static let maxInner = 32

    /// A leaf's keys, or an inner node's first key of each subtree.
    let keys: [String]
    /// ``KeyOrder/rank(bytes:)`` of each of ``keys``, which searches compare first.
    let ranks: [UInt64]
    /// A leaf's children (empty for an inner node).
    let nodes: [DataNode]
    /// An inner node's subtrees (empty for a leaf).
    let subs: [ChildTree]
    /// Children below.
    let entryCount: Int
    /// Data nodes below (the sum of the children's ``DataNode/count``).
    let nodeCount: Int

    var isLeaf: Bool { subs.isEmpty }

    /// A leaf from sorted, non-empty keys and their children.
    init(leafKeys: [String], ranks: [UInt64], nodes: [DataNode]) {
        self.keys = leafKeys
        self.ranks = ranks
        self.nodes = nodes
        self.subs = []
        self.entryCount = nodes.count
        var total = 0
        for n in nodes { total += n.count }
        self.nodeCount = total
    }

    /// A node with its counts already known (a copy of a node with one entry changed).
    private init(keys: [String], ranks: [UInt64], nodes: [DataNode], subs: [ChildTree], entryCount: Int, nodeCount: Int) {
        self.keys = keys
        self.ranks = ranks
        self.nodes = nodes
        self.subs = subs
        self.entryCount = entryCount
        self.nodeCount = nodeCount
    }

    /// An inner node over non-empty subtrees in order.
    init(subs: [ChildTree]) {
        var keys: [String] = []
        var ranks: [UInt64] = []
        keys.reserveCapacity(subs.count)
        ranks.reserveCapacity(subs.count)
        var entries = 0, total = 0
        for s in subs {
            keys.append(s.keys[0])
            ranks.append(s.ranks[0])
            entries += s.entryCount
            total += s.nodeCount
        }
        self.keys = keys
        self.ranks = ranks
        self.nodes = []
        self.subs = subs
        self.entryCount = entries
        self.nodeCount = total
    }

    /// A balanced tree over sorted keys (more than zero) and their children.
    static func build(keys: [String], ranks: [UInt64], nodes: [DataNode]) -> ChildTree {
        // Leaves three-quarters full leave room for inserts before the first split.
        let leafSize = maxLeaf * 3 / 4
        var level: [ChildTree] = []
        var start = 0
        while start < keys.count {
            let end = Swift.min(start + leafSize, keys.count)
            level.append(ChildTree(leafKeys: Array(keys[start..<end]), ranks: Array(ranks[start..<end]), nodes: Array(nodes[start..<end])))
            start = end
        }
        let innerSize = maxInner * 3 / 4
        while level.count > 1 {
            var next: [ChildTree] = []
            var i = 0
            while i < level.count {
                let end = Swift.min(i + innerSize, level.count)
                next.append(ChildTree(subs: Array(level[i..<end])))
                i = end
            }
            level = next
        }
        return level[0]
    }

    /// The child at `key`, or nil.
    func find(_ probe: KeyProbe) -> DataNode? {
        var tree = self
        while !tree.isLeaf { tree = tree.subs[Self.subIndex(tree, probe)] }
        let (index, found) = probe.search(tree.keys, tree.ranks)
        return found ? tree.nodes[index] : nil
    }

    /// The result of setting one child in a subtree (no case allocates).
    enum Change {
        /// Nothing changed.
        case unchanged
        /// The subtree lost its last child.
        case emptied
        /// The subtree is now this one.
        case one(ChildTree)
        /// The subtree grew too big and is now these two, in order.
        case split(ChildTree, ChildTree)
    }

    /// This subtree with the child at `key` set to `child` (nil removes it).
    func setting(_ probe: KeyProbe, _ child: DataNode?) -> Change {
        if isLeaf {
            let (index, found) = probe.search(keys, ranks)
            if found {
                let old = nodes[index]
                if let child {
                    if child === old { return .unchanged }
                    // The keys stay shared, and the counts follow from the one child replaced
                    // (rather than summing every child again).
                    return .one(ChildTree(keys: keys, ranks: ranks, nodes: nodes.replacing(at: index, with: child), subs: [],
                                          entryCount: entryCount, nodeCount: nodeCount - old.count + child.count))
                }
                if keys.count == 1 { return .emptied }
                return .one(ChildTree(keys: keys.removing(at: index), ranks: ranks.removing(at: index),
                                      nodes: nodes.removing(at: index), subs: [], entryCount: entryCount - 1,
                                      nodeCount: nodeCount - old.count))
            }
            guard let child else { return .unchanged }
            let newKeys = keys.inserting(probe.key, at: index)
            let newRanks = ranks.inserting(probe.rank, at: index)
            let newNodes = nodes.inserting(child, at: index)
            if newKeys.count > Self.maxLeaf {
                let half = newKeys.count / 2
                return .split(
                    ChildTree(leafKeys: Array(newKeys[..<half]), ranks: Array(newRanks[..<half]), nodes: Array(newNodes[..<half])),
                    ChildTree(leafKeys: Array(newKeys[half...]), ranks: Array(newRanks[half...]), nodes: Array(newNodes[half...])))
            }
            return .one(ChildTree(leafKeys: newKeys, ranks: newRanks, nodes: newNodes))
        }
        let i = Self.subIndex(self, probe)
        let old = subs[i]
        switch old.setting(probe, child) {
        case .unchanged:
            return .unchanged
        case .one(let part):
            // One subtree replaced by one: the counts change by the difference, and the keys
            // stay shared unless its first key changed (compared by bytes: `==` on `String`
            // would accept a canonically equivalent one).
            var newKeys = keys, newRanks = ranks
            if KeyOrder.compare(part.keys[0], rank: part.ranks[0], keys[i], rank: ranks[i]) != 0 {
                newKeys[i] = part.keys[0]
                newRanks[i] = part.ranks[0]
            }
            return .one(ChildTree(keys: newKeys, ranks: newRanks, nodes: [], subs: subs.replacing(at: i, with: part),
                                  entryCount: entryCount - old.entryCount + part.entryCount,
                                  nodeCount: nodeCount - old.nodeCount + part.nodeCount))
        case .emptied:
            if subs.count == 1 { return .emptied }
            return .one(ChildTree(subs: subs.removing(at: i)))
        case .split(let first, let second):
            var newSubs = subs
            newSubs[i] = first
            newSubs.insert(second, at: i + 1)
            if newSubs.count > Self.maxInner {
                let half = newSubs.count / 2
                return .split(ChildTree(subs: Array(newSubs[..<half])), ChildTree(subs: Array(newSubs[half...])))
            }
            return .one(ChildTree(subs: newSubs))
        }
    }

    /// The tree with the child at `key` set; nil when it became empty, `self` when unchanged.
    /// A root left with one subtree is replaced by it, so the height shrinks as the tree does.
    func settingRoot(_ probe: KeyProbe, _ child: DataNode?) -> ChildTree? {
        switch setting(probe, child) {
        case .unchanged: return self
        case .emptied: return nil
        case .one(var root):
            while !root.isLeaf && root.subs.count == 1 { root = root.subs[0] }
            return root
        case .split(let first, let second):
            return ChildTree(subs: [first, second])
        }
    }

    /// Calls `body` with each key and child in order.
    func forEach(_ body: (String, DataNode) -> Void) {
        if isLeaf {
            for i in keys.indices { body(keys[i], nodes[i]) }
        } else {
            for s in subs { s.forEach(body) }
        }
    }

    /// The subtree of an inner node that holds `key`: the last whose first key is not above it.
    private static func subIndex(_ tree: ChildTree, _ probe: KeyProbe) -> Int {
        let (index, found) = probe.search(tree.keys, tree.ranks)
        if found { return index }
        return Swift.max(index - 1, 0)
    }
}
