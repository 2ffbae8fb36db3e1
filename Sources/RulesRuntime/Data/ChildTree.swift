/// The children of an object, in ``KeyOrder``: a persistent B+ tree. A narrow object (up to
/// ``maxLeaf`` children) has a single leaf; a wider one has inner nodes above its leaves.
///
/// Immutable; an update copies only the tree nodes on one root-to-leaf path (at most
/// ``maxLeaf`` or ``maxInner`` slots each), so writing under a node with a million children
/// costs about as much as under one with a hundred.
///
/// Each tree node keeps its slots (a rank and a child each) in its own allocation, after its
/// header. A key of up to 15 bytes (or an integer) is whole in its rank: a node whose keys are
/// all such keeps no other copy of them. A node with a longer key keeps all its keys in a
/// ``ChildKeys`` block, which a copy that replaces one child shares: such a copy is one
/// allocation, with static class metadata (a new `Array` goes through the standard library's
/// unspecialised allocation path, which looks up runtime metadata on every call). Slots and keys are written only while a node is made, so nodes are shared freely
/// between threads and between versions of a tree; the one exception is a writer that holds the
/// only reference to a node (`ChildTree+InPlace.swift`), which nobody else can read.
final class ChildTree: ManagedBuffer<ChildTreeHeader, ChildSlot> {
    /// Most slots in a leaf; a leaf that grows past it splits in two.
    static let maxLeaf = 32
    /// Most subtrees under an inner node.
    static let maxInner = 32

    deinit {
        // Slot by slot, as ``copySlots(_:_:to:)`` copies them.
        _ = withUnsafeMutablePointers { header, slots in
            for i in 0..<header.pointee.count { (slots + i).deinitialize(count: 1) }
        }
    }

    // MARK: - Reading

    /// Slots in this tree node.
    var slotCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
    /// Whether the slots hold data nodes (a leaf) or subtrees (an inner node).
    var isLeaf: Bool { withUnsafeMutablePointerToHeader { $0.pointee.isLeaf } }
    /// Children below.
    var entryCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.entryCount } }
    /// Data nodes below (the sum of the children's ``DataNode/count``).
    var nodeCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.nodeCount } }
    /// The slots' keys, when not every key is whole in its rank.
    private var keys: ChildKeys? { withUnsafeMutablePointerToHeader { $0.pointee.keys } }

    /// The key of slot `i`: a leaf's child key, an inner node's subtree's first key.
    func key(at i: Int) -> String {
        withUnsafeMutablePointers { header, slots in header.pointee.keys?[i] ?? slots[i].rank.key }
    }
    /// The rank of slot `i`'s key.
    func rank(at i: Int) -> KeyRank { withUnsafeMutablePointerToElements { $0[i].rank } }
    /// A leaf's child at slot `i`.
    func node(at i: Int) -> DataNode { withUnsafeMutablePointerToElements { $0[i].child } }
    /// An inner node's subtree at slot `i`.
    func sub(at i: Int) -> ChildTree { withUnsafeMutablePointerToElements { $0[i].child.subtree } }

    /// The slot of the probe's key in this tree node, or where it would be inserted.
    func search(_ probe: KeyProbe) -> (index: Int, found: Bool) {
        withUnsafeMutablePointers { header, slots in
            var low = 0
            var high = header.pointee.count
            let ph = probe.rank.high, pl = probe.rank.low
            while low < high {
                let mid = low &+ (high &- low) >> 1
                // The rank's halves one at a time: most comparisons end at the first.
                let h = slots[mid].rank.high
                if h < ph { low = mid &+ 1; continue }
                if h > ph { high = mid; continue }
                let l = slots[mid].rank.low
                if l < pl { low = mid &+ 1; continue }
                if l > pl { high = mid; continue }
                // The same key, or (for a long key) the same first 15 bytes: the bytes decide.
                if probe.rank.decidesEquality { return (mid, true) }
                // Such a rank does not hold its key whole, so the node keeps its keys.
                let c = header.pointee.keys!.compare(mid, probe.key)
                if c == 0 { return (mid, true) }
                if c < 0 { low = mid &+ 1 } else { high = mid }
            }
            return (low, false)
        }
    }

    /// The child at the probe's key, or nil.
    func find(_ probe: KeyProbe) -> DataNode? {
        // A leaf (every object of up to `maxLeaf` children) is searched as it is: walking
        // through a variable would retain and release it.
        if isLeaf {
            let (index, found) = search(probe)
            return found ? node(at: index) : nil
        }
        var tree = self
        while !tree.isLeaf { tree = tree.sub(at: tree.subIndex(probe)) }
        let (index, found) = tree.search(probe)
        return found ? tree.node(at: index) : nil
    }

    /// Most levels a trail records (``find(_:trail:)``); a deeper tree (which would take
    /// billions of children) is searched again instead.
    static let maxTrail = 8

    /// ``find(_:)``, writing the slot taken at each level, from the root down, to `trail` (room
    /// for ``maxTrail``), so that a copy of the same path need not search again
    /// (``settingRoot(_:_:trail:)``). When the key is not found, or the tree is deeper than
    /// ``maxTrail``, `trail[0]` is -1: there is no trail to follow.
    func find(_ probe: KeyProbe, trail: UnsafeMutablePointer<Int32>) -> DataNode? {
        if isLeaf {
            let (index, found) = search(probe)
            trail[0] = found ? Int32(index) : -1
            return found ? node(at: index) : nil
        }
        var tree = self
        var depth = 0
        while !tree.isLeaf {
            let i = tree.subIndex(probe)
            if depth < Self.maxTrail { trail[depth] = Int32(i) }
            depth += 1
            tree = tree.sub(at: i)
        }
        let (index, found) = tree.search(probe)
        if depth < Self.maxTrail { trail[depth] = Int32(index) }
        if !found || depth >= Self.maxTrail { trail[0] = -1 }
        return found ? tree.node(at: index) : nil
    }

    /// Appends the first keys in order until `out` holds `limit`, without walking the rest.
    func firstKeys(_ limit: Int, into out: inout [String]) {
        let n = slotCount
        if isLeaf {
            for i in 0..<n where out.count < limit { out.append(key(at: i)) }
        } else {
            for i in 0..<n where out.count < limit { sub(at: i).firstKeys(limit, into: &out) }
        }
    }

    /// Calls `body` with each key and child in order.
    func forEach(_ body: (String, DataNode) -> Void) {
        withUnsafeMutablePointers { header, slots in
            let n = header.pointee.count
            if header.pointee.isLeaf {
                if let keys = header.pointee.keys {
                    for i in 0..<n { body(keys[i], slots[i].child) }
                } else {
                    for i in 0..<n { body(slots[i].rank.key, slots[i].child) }
                }
            } else {
                for i in 0..<n { slots[i].child.subtree.forEach(body) }
            }
        }
    }

    /// Calls `body` with each key and child in order from the probe's key (or the first key
    /// after it; every key when `probe` is nil), until `body` returns false. Returns false when
    /// `body` stopped it.
    @discardableResult
    func forEach(from probe: KeyProbe?, inclusive: Bool, _ body: (String, DataNode) -> Bool) -> Bool {
        let n = slotCount
        if isLeaf {
            var i = 0
            if let probe {
                let (index, found) = search(probe)
                i = found && !inclusive ? index + 1 : index
            }
            while i < n {
                if !body(key(at: i), node(at: i)) { return false }
                i += 1
            }
            return true
        }
        var i = probe.map(subIndex) ?? 0
        if !sub(at: i).forEach(from: probe, inclusive: inclusive, body) { return false }
        i += 1
        while i < n {
            if !sub(at: i).forEach(from: nil, inclusive: true, body) { return false }
            i += 1
        }
        return true
    }

    /// Calls `body` with each key and child in reverse order from the probe's key (or the last
    /// key before it; every key when `probe` is nil), until `body` returns false. Returns false
    /// when `body` stopped it.
    @discardableResult
    func forEachReversed(from probe: KeyProbe?, inclusive: Bool, _ body: (String, DataNode) -> Bool) -> Bool {
        let n = slotCount
        if isLeaf {
            var i = n - 1
            if let probe {
                let (index, found) = search(probe)
                i = found && inclusive ? index : index - 1
            }
            while i >= 0 {
                if !body(key(at: i), node(at: i)) { return false }
                i -= 1
            }
            return true
        }
        var i = probe.map(subIndex) ?? n - 1
        if !sub(at: i).forEachReversed(from: probe, inclusive: inclusive, body) { return false }
        i -= 1
        while i >= 0 {
            if !sub(at: i).forEachReversed(from: nil, inclusive: true, body) { return false }
            i -= 1
        }
        return true
    }

    /// The subtree of an inner node that holds the probe's key: the last whose first key is not
    /// above it.
    func subIndex(_ probe: KeyProbe) -> Int {
        let (index, found) = search(probe)
        if found { return index }
        return Swift.max(index - 1, 0)
    }

    // MARK: - Making

    /// A tree node over `keys`, whose first `count` slots `fill` initialises (room for
    /// `capacity`, when given), with its counts already known.
    @inline(__always)
    private static func make(leaf: Bool, keys: ChildKeys?, count: Int, capacity: Int? = nil, entryCount: Int, nodeCount: Int,
                             _ fill: (UnsafeMutablePointer<ChildSlot>) -> Void) -> ChildTree {
        let tree = unsafeDowncast(create(minimumCapacity: capacity ?? count) { _ in
            ChildTreeHeader(count: 0, isLeaf: leaf, entryCount: entryCount, nodeCount: nodeCount, keys: keys)
        }, to: ChildTree.self)
        tree.withUnsafeMutablePointers { header, slots in
            fill(slots)
            header.pointee.count = count
        }
        return tree
    }

    /// A tree node over the entries that `fill` writes through its `append` argument (at most
    /// `capacity` of them), its counts summed from them.
    @inline(__always)
    private static func make(leaf: Bool, capacity: Int, _ fill: ((String?, ChildSlot) -> Void) -> Void) -> ChildTree {
        let tree = make(leaf: leaf, keys: nil, count: 0, capacity: capacity, entryCount: 0, nodeCount: 0) { _ in }
        tree.withUnsafeMutablePointers { header, to in
            var n = 0, entries = 0, nodes = 0
            // Made at the first key that is not whole in its rank, with the keys before it.
            var block: ChildKeys?
            fill { key, slot in
                precondition(n < capacity, "more entries than the capacity of a child tree node")
                if block == nil, !slot.rank.decidesEquality {
                    block = ChildKeys.make(count: n, capacity: capacity) { to[$0].rank.key }
                }
                if let block {
                    block.withUnsafeMutablePointerToElements { ($0 + n).initialize(to: key ?? slot.rank.key) }
                }
                (to + n).initialize(to: slot)
                n += 1
                if leaf {
                    entries += 1
                    nodes += slot.child.count
                } else {
                    let sub = slot.child.subtree
                    entries += sub.entryCount
                    nodes += sub.nodeCount
                }
            }
            block?.withUnsafeMutablePointerToHeader { $0.pointee = n }  // the keys added after it was made
            header.pointee = ChildTreeHeader(count: n, isLeaf: leaf, entryCount: entries, nodeCount: nodes, keys: block)
        }
        return tree
    }

    /// A tree node over `count` keys and slots given by `entry(i)`, its counts summed from them.
    private static func make(leaf: Bool, count: Int, _ entry: (Int) -> (key: String, slot: ChildSlot)) -> ChildTree {
        make(leaf: leaf, capacity: count) { append in
            for i in 0..<count {
                let e = entry(i)
                append(e.key, e.slot)
            }
        }
    }

    /// A leaf with one child.
    static func single(_ key: String, rank: KeyRank, _ child: DataNode) -> ChildTree {
        make(leaf: true, keys: rank.decidesEquality ? nil : .make(count: 1) { $0.initialize(to: key) }, count: 1, entryCount: 1, nodeCount: child.count) { to in
            to.initialize(to: ChildSlot(rank: rank, child: child))
        }
    }

    /// A balanced tree over sorted, distinct keys (more than zero) with their ranks and children.
    static func build(keys: [String], ranks: [KeyRank], nodes: [DataNode]) -> ChildTree {
        build(count: keys.count) { i in (keys[i], ChildSlot(rank: ranks[i], child: nodes[i])) }
    }

    /// A balanced tree over `count` (more than zero) children given in order by `entry(i)`:
    /// sorted, distinct keys with their ranks.
    static func build(count: Int, _ entry: (Int) -> (key: String, slot: ChildSlot)) -> ChildTree {
        func leaf(_ range: Range<Int>) -> ChildTree {
            make(leaf: true, count: range.count) { i in entry(range.lowerBound + i) }
        }
        if count <= maxLeaf { return leaf(0..<count) }
        // Leaves three-quarters full leave room for inserts before the first split.
        let leafSize = maxLeaf * 3 / 4
        var level: [ChildTree] = []
        var start = 0
        while start < count {
            let end = Swift.min(start + leafSize, count)
            level.append(leaf(start..<end))
            start = end
        }
        let innerSize = maxInner * 3 / 4
        while level.count > 1 {
            var next: [ChildTree] = []
            var i = 0
            while i < level.count {
                let end = Swift.min(i + innerSize, level.count)
                let subs = level[i..<end]
                next.append(make(leaf: false, count: subs.count) { subs[subs.startIndex + $0].entryForParent })
                i = end
            }
            level = next
        }
        return level[0]
    }

    /// The key and slot at `i`.
    private func entry(_ i: Int) -> (key: String, slot: ChildSlot) {
        (key(at: i), withUnsafeMutablePointerToElements { $0[i] })
    }

    /// Appends the keys and slots of every leaf below, in order.
    private func collectEntries(into entries: inout [(key: String, slot: ChildSlot)]) {
        let n = slotCount
        if isLeaf {
            for i in 0..<n { entries.append(entry(i)) }
        } else {
            for i in 0..<n { sub(at: i).collectEntries(into: &entries) }
        }
    }

    /// The key and slot that point at this subtree from its parent.
    private var entryForParent: (key: String, slot: ChildSlot) {
        (key(at: 0), ChildSlot(rank: rank(at: 0), child: DataNode(subtree: self)))
    }

    // MARK: - Copies with one slot changed

    /// Copies the slots `range` of `from` to uninitialised memory at `to`.
    @inline(__always)
    private static func copySlots(_ from: UnsafeMutablePointer<ChildSlot>, _ range: Range<Int>, to: UnsafeMutablePointer<ChildSlot>) {
        // Slot by slot, so that each copy is the slot's own code inlined (the bulk copy goes
        // through the runtime's generic copy, a value-witness call per slot).
        var source = from + range.lowerBound, target = to
        for _ in range {
            target.initialize(to: source.pointee)
            source += 1
            target += 1
        }
    }

    /// A copy with slot `index` replaced (and its key, when `key` is given), its counts given.
    private func replacing(_ index: Int, with slot: ChildSlot, key: String?, entryCount: Int, nodeCount: Int) -> ChildTree {
        withUnsafeMutablePointers { header, slots in
            let n = header.pointee.count
            let old = header.pointee.keys
            var keys = old
            if let key {
                if let old {
                    keys = ChildKeys.make(count: n) { ChildKeys.copy(old, n, replacing: index, with: key, into: $0) }
                } else if !slot.rank.decidesEquality {
                    keys = ChildKeys.make(count: n) { $0 == index ? key : slots[$0].rank.key }
                }
            }
            return Self.make(leaf: header.pointee.isLeaf, keys: keys, count: n, entryCount: entryCount, nodeCount: nodeCount) { to in
                Self.copySlots(slots, 0..<index, to: to)
                (to + index).initialize(to: slot)
                Self.copySlots(slots, (index + 1)..<n, to: to + index + 1)
            }
        }
    }

    /// A copy without slot `index`, its counts given.
    private func removing(_ index: Int, entryCount: Int, nodeCount: Int) -> ChildTree {
        withUnsafeMutablePointers { header, slots in
            let n = header.pointee.count
            let keys = header.pointee.keys.map { old in ChildKeys.make(count: n - 1) { ChildKeys.copy(old, n, removing: index, into: $0) } }
            return Self.make(leaf: header.pointee.isLeaf, keys: keys, count: n - 1, entryCount: entryCount, nodeCount: nodeCount) { to in
                Self.copySlots(slots, 0..<index, to: to)
                Self.copySlots(slots, (index + 1)..<n, to: to + index)
            }
        }
    }

    /// A copy with `slot` and its key inserted at `index` (`0 ... slotCount`), its counts given.
    private func inserting(_ slot: ChildSlot, key: String, at index: Int, entryCount: Int, nodeCount: Int) -> ChildTree {
        withUnsafeMutablePointers { header, slots in
            let n = header.pointee.count
            var keys: ChildKeys?
            if let old = header.pointee.keys {
                keys = ChildKeys.make(count: n + 1) { ChildKeys.copy(old, n, inserting: key, at: index, into: $0) }
            } else if !slot.rank.decidesEquality {
                keys = ChildKeys.make(count: n + 1) { $0 < index ? slots[$0].rank.key : $0 == index ? key : slots[$0 - 1].rank.key }
            }
            return Self.make(leaf: header.pointee.isLeaf, keys: keys, count: n + 1, entryCount: entryCount, nodeCount: nodeCount) { to in
                Self.copySlots(slots, 0..<index, to: to)
                (to + index).initialize(to: slot)
                Self.copySlots(slots, index..<n, to: to + index + 1)
            }
        }
    }

    /// This node's entries with slot `index` replaced by `entries[0]` and the rest of `entries`
    /// inserted after it (`replacing`), or all of `entries` inserted at `index`, as two halves:
    /// a node that grew too big.
    private func split(_ entries: [(key: String, slot: ChildSlot)], at index: Int, replacing: Bool) -> (ChildTree, ChildTree) {
        let n = slotCount
        var all: [(key: String, slot: ChildSlot)] = []
        all.reserveCapacity(n + entries.count)
        for i in 0..<n { all.append(entry(i)) }
        all.replaceSubrange(index..<(replacing ? index + 1 : index), with: entries)
        let half = all.count / 2
        let leaf = isLeaf
        return (Self.make(leaf: leaf, count: half) { all[$0] },
                Self.make(leaf: leaf, count: all.count - half) { all[half + $0] })
    }

    /// Whether this subtree's first key is the key of slot `i` of `parent` (the same bytes).
    private func startsWith(keyOf i: Int, in parent: ChildTree) -> Bool {
        let r = rank(at: 0)
        if r != parent.rank(at: i) { return false }
        if r.decidesEquality { return true }
        // Such a rank does not hold its key whole, so both nodes keep their keys.
        return keys!.sameKey(0, as: parent.keys!, i)
    }

    // MARK: - Setting a child

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

    /// This subtree with the child at the probe's key set to `child` (nil removes it). With a
    /// `trail` (written by ``find(_:trail:)`` for the same key in this tree, which found it),
    /// the slot at each level is taken from it instead of searched for; `depth` is this node's
    /// level below the root.
    func setting(_ probe: KeyProbe, _ child: DataNode?, trail: UnsafePointer<Int32>?, depth: Int) -> Change {
        let n = slotCount
        if isLeaf {
            let (index, found) = trail.map { (Int($0[depth]), true) } ?? search(probe)
            if found {
                let old = node(at: index)
                guard let child else {
                    if n == 1 { return .emptied }
                    return .one(removing(index, entryCount: entryCount - 1, nodeCount: nodeCount - old.count))
                }
                if child === old { return .unchanged }
                // The keys stay shared: the probe's key has the same bytes as the one in place.
                return .one(replacing(index, with: ChildSlot(rank: rank(at: index), child: child), key: nil,
                                      entryCount: entryCount, nodeCount: nodeCount - old.count + child.count))
            }
            guard let child else { return .unchanged }
            let slot = ChildSlot(rank: probe.rank, child: child)
            if n + 1 > Self.maxLeaf {
                let (first, second) = split([(probe.key, slot)], at: index, replacing: false)
                return .split(first, second)
            }
            return .one(inserting(slot, key: probe.key, at: index, entryCount: entryCount + 1, nodeCount: nodeCount + child.count))
        }
        let i = trail.map { Int($0[depth]) } ?? subIndex(probe)
        let old = sub(at: i)
        switch old.setting(probe, child, trail: trail, depth: depth + 1) {
        case .unchanged:
            return .unchanged
        case .one(let part):
            // The slot's key is the subtree's first key, which changes only when its first
            // child did: otherwise the keys stay shared.
            return .one(replacing(i, with: ChildSlot(rank: part.rank(at: 0), child: DataNode(subtree: part)),
                                  key: part.startsWith(keyOf: i, in: self) ? nil : part.key(at: 0),
                                  entryCount: entryCount - old.entryCount + part.entryCount,
                                  nodeCount: nodeCount - old.nodeCount + part.nodeCount))
        case .emptied:
            if n == 1 { return .emptied }
            return .one(removing(i, entryCount: entryCount - old.entryCount, nodeCount: nodeCount - old.nodeCount))
        case .split(let first, let second):
            if n + 1 > Self.maxInner {
                let (a, b) = split([first.entryForParent, second.entryForParent], at: i, replacing: true)
                return .split(a, b)
            }
            return .one(Self.make(leaf: false, count: n + 1) { j in
                j < i ? entry(j) : j == i ? first.entryForParent : j == i + 1 ? second.entryForParent : entry(j - 1)
            })
        }
    }

    /// The tree with the child at the probe's key set (at the slots of `trail`, when given: see
    /// ``setting(_:_:trail:depth:)``); nil when it became empty, `self` when unchanged. A root
    /// left with one subtree is replaced by it, so the height shrinks as the tree does.
    func settingRoot(_ probe: KeyProbe, _ child: DataNode?, trail: UnsafePointer<Int32>? = nil) -> ChildTree? {
        switch setting(probe, child, trail: trail, depth: 0) {
        case .unchanged: return self
        case .emptied: return nil
        case .one(var root):
            while !root.isLeaf && root.slotCount == 1 { root = root.sub(at: 0) }
            // Removals leave small leaves behind (leaves are not merged): a tree whose children
            // fit in half a leaf becomes one leaf again, so its searches take one step.
            if !root.isLeaf && root.entryCount <= Self.maxLeaf / 2 {
                var entries: [(key: String, slot: ChildSlot)] = []
                entries.reserveCapacity(root.entryCount)
                root.collectEntries(into: &entries)
                return Self.build(count: entries.count) { entries[$0] }
            }
            return root
        case .split(let first, let second):
            return Self.make(leaf: false, count: 2) { $0 == 0 ? first.entryForParent : second.entryForParent }
        }
    }

    // MARK: - Several children of a leaf

    /// A single leaf (``isLeaf``) with the children at the sorted, distinct keys of `changes`
    /// replaced (nil removes), in one pass: nil when no child is left, `self` when nothing
    /// changed. A result with more than ``maxLeaf`` children is built as a tree.
    func mergingLeaf(_ changes: [(key: String, rank: KeyRank, node: DataNode?)]) -> ChildTree? {
        var changed = false
        let n = slotCount
        let merged = Self.make(leaf: true, capacity: n + changes.count) { append in
            withUnsafeMutablePointers { header, slots in
                let oldKeys = header.pointee.keys
                // Ranks first: a rank that does not decide belongs to a node that keeps its keys.
                func compareOld(_ i: Int, _ j: Int) -> Int {
                    let ra = slots[i].rank, rb = changes[j].rank
                    if ra != rb { return ra < rb ? -1 : 1 }
                    if ra.decidesEquality { return 0 }
                    return KeyOrder.compareStringBytes(oldKeys![i], changes[j].key)
                }
                var i = 0, j = 0
                // The kept slots are copied.
                while i < n || j < changes.count {
                    let c = i == n ? 1 : j == changes.count ? -1
                        : compareOld(i, j)
                    if c < 0 {
                        // A kept key is passed only where the node keeps its keys (else it is
                        // whole in its rank).
                        append(oldKeys?[i], slots[i])
                        i += 1
                        continue
                    }
                    if let node = changes[j].node {
                        append(changes[j].key, ChildSlot(rank: changes[j].rank, child: node))
                        if c != 0 || node !== slots[i].child { changed = true }
                    } else if c == 0 {
                        changed = true
                    }
                    if c == 0 { i += 1 }
                    j += 1
                }
            }
        }
        if !changed { return self }
        let count = merged.slotCount
        if count == 0 { return nil }
        if count <= Self.maxLeaf { return merged }
        // Too many for one leaf: built as a tree (rare; an update that adds many children).
        return Self.build(count: count) { merged.entry($0) }
    }
}

/// The fixed part of a ``ChildTree`` node, before its slots: 32 bytes, the narrow fields last.
struct ChildTreeHeader {
    /// Children below.
    var entryCount: Int
    /// Data nodes below.
    var nodeCount: Int
    /// The slots' keys, shared with the node's copies that keep them; nil when every key is
    /// whole in its rank (``KeyRank/key``).
    let keys: ChildKeys?
    /// Slots in the node (at most ``ChildTree/maxLeaf`` or ``ChildTree/maxInner``).
    private var slots: UInt32
    /// Whether the slots hold data nodes (a leaf) or subtrees (an inner node).
    let isLeaf: Bool

    init(count: Int, isLeaf: Bool, entryCount: Int, nodeCount: Int, keys: ChildKeys?) {
        self.entryCount = entryCount
        self.nodeCount = nodeCount
        self.keys = keys
        self.slots = UInt32(count)
        self.isLeaf = isLeaf
    }

    /// Slots in the node.
    var count: Int {
        get { Int(slots) }
        set { slots = UInt32(newValue) }
    }
}

/// One slot of a ``ChildTree`` node: a child, or a subtree, with the rank of its key (the key
/// itself is in the rank when it is short, else in the node's ``ChildKeys``). A leaf child is
/// held here whole, with no allocation of its own.
struct ChildSlot {
    /// The ``KeyRank`` of the slot's key, which searches compare first.
    let rank: KeyRank
    /// A tree leaf's child, or an inner node's subtree (``DataNode/init(subtree:)``).
    let child: DataNode
}
