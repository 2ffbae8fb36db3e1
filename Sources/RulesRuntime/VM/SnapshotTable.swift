/// The snapshots made during one operation: each entry is a location in the old or the new tree,
/// with the entry of its parent location and, once somebody asks, the node stored there.
///
/// `child()` and `parent()` add or follow entries instead of copying anything. A location's node
/// is looked up **lazily**, the first time a rule reads it (``node(_:)``): a rule that never
/// looks at `data` (`auth != null`) costs no search in the tree, and a chain such as
/// `data.parent().child('a').child('b')` searches only for what is finally read. The engine
/// adds the locations whose nodes it already holds (the written path) as resolved entries.
///
/// Each location has one entry: asking for a child that was asked for before (rules repeat
/// `data.parent().child('count')` from branch to branch) returns the existing entry, whose
/// node has then usually been looked up already. An entry's children are linked in a list.
/// The table is reused (its capacity kept) from one operation to the next.
package struct SnapshotTable: Sendable {
    /// One location.
    package struct Entry: Sendable {
        /// The node stored there (nil when nothing is); meaningful once `resolved`.
        var stored: DataNode?
        /// Whether `stored` has been looked up.
        var resolved: Bool
        /// For a location of the new tree on the path of the write described by the
        /// ``overlay``, unresolved: its depth on that path (its node is the overlay's; paths
        /// have fewer than 128 keys). Otherwise -1.
        var level: Int8 = -1
        /// The parent location's entry, or -1 at the root.
        package var parent: Int32
        /// The key of this location under its parent ("" at the root).
        package var key: String
        /// The key's ``KeyRank`` when known in advance (a key written in the
        /// rules), else ``KeyOrder/unknownRank``: the look-up then computes it.
        var rank: KeyRank = KeyOrder.unknownRank
        /// The most recently added child entry, or -1.
        var firstChild: Int32 = -1
        /// The next child entry of the same parent, or -1.
        var nextSibling: Int32 = -1
    }

    /// The entries.
    package private(set) var entries: [Entry] = []

    /// The write that new-tree entries with a ``Entry/level`` describe (see ``addOverlayRoot()``).
    var overlay = WriteOverlay()

    /// Unresolved ancestors waiting in ``node(_:)``, deepest first; empty between calls (its
    /// storage is kept, so resolving a chain such as `data.parent().parent().child('n')`
    /// allocates nothing).
    private var ancestors: [Int32] = []

    /// Links made under entries older than the innermost ``Mark`` (the parent and its first
    /// child before), so that ``rollback(_:)`` can undo them.
    private var undo: [(parent: Int32, firstChild: Int32)] = []
    /// The entry count of the innermost mark (-1: none).
    private var markCount: Int32 = -1

    /// A point to come back to: the entries made after it can be forgotten (``rollback(_:)``).
    struct Mark {
        fileprivate let count: Int32
        fileprivate let undo: Int
        fileprivate let outer: Int32
        /// The first entry made after the mark.
        var firstEntry: Int32 { count }
    }

    /// Marks the table, so that what is added next can be forgotten: a validation of many
    /// children keeps what one child needed only while that child is checked.
    mutating func mark() -> Mark {
        let m = Mark(count: Int32(entries.count), undo: undo.count, outer: markCount)
        markCount = m.count
        return m
    }

    /// Keeps what was added since `m`.
    mutating func keep(_ m: Mark) {
        markCount = m.outer
        if markCount < 0 { undo.removeAll(keepingCapacity: true) }
    }

    /// Forgets every entry added since `m` and the links to them.
    mutating func rollback(_ m: Mark) {
        while undo.count > m.undo {
            let u = undo.removeLast()
            if u.parent < m.count { entries[Int(u.parent)].firstChild = u.firstChild }
        }
        if entries.count > Int(m.count) { entries.removeSubrange(Int(m.count)...) }
        markCount = m.outer
        if markCount < 0 { undo.removeAll(keepingCapacity: true) }
    }

    /// Creates an empty table.
    package init() {}

    /// Forgets every entry, keeping the storage.
    package mutating func reset() {
        // Already empty (a decision starts after the last one's reset): only the capacity check.
        if entries.isEmpty {
            if entries.capacity < 32 { entries.reserveCapacity(32) }
            return
        }
        // A few entries (a read) are popped one by one; more (a write) are dropped in one call,
        // whose fixed cost is then less than popping each.
        if entries.count > 4 { entries.removeAll(keepingCapacity: true) } else { entries.clearKeepingCapacity() }
        markCount = -1
        if !undo.isEmpty { undo.removeAll(keepingCapacity: true) }
        // One allocation up front instead of a doubling series for a typical operation.
        if entries.capacity < 32 { entries.reserveCapacity(32) }
    }

    /// Adds the root of a tree and returns its index.
    package mutating func addRoot(_ node: DataNode?) -> Int32 {
        entries.append(Entry(stored: node, resolved: true, parent: -1, key: ""))
        return Int32(entries.count - 1)
    }

    /// Adds the root of the tree after the write the ``overlay`` describes: its entries on the
    /// written path stand for the overlay's nodes, built only if a rule reads one whole.
    mutating func addOverlayRoot() -> Int32 {
        if overlay.depth == 0 {
            entries.append(Entry(stored: overlay.written(), resolved: true, parent: -1, key: ""))
        } else {
            entries.append(Entry(stored: nil, resolved: false, level: 0, parent: -1, key: ""))
        }
        return Int32(entries.count - 1)
    }

    /// Adds the child location `key` of `parent` and returns its index; its node is looked up
    /// when first read.
    package mutating func addChild(of parent: Int32, key: String) -> Int32 {
        addChild(of: parent, key: key, rank: KeyOrder.unknownRank)
    }

    /// Adds the child location `key` of `parent`, with the key's rank already computed (or
    /// ``KeyOrder/unknownRank``), or returns its entry if it has one.
    mutating func addChild(of parent: Int32, key: String, rank: KeyRank) -> Int32 {
        if let known = existingChild(of: parent, key: key, rank: rank) { return known }
        return link(nil, resolved: false, parent: parent, key: key, rank: rank)
    }

    /// Most children of one entry compared when looking for an existing one: the most recent
    /// ones, which rules ask for again. A location found further down the list gets a second
    /// entry (the same node, looked up again), so a rule that visits thousands of siblings
    /// never makes the look-up quadratic.
    static let siblingsSearched = 8

    /// The entry of the child `key` of `parent`, if there is one among the last
    /// ``siblingsSearched`` added.
    @inline(__always)
    private func existingChild(of parent: Int32, key: String, rank: KeyRank) -> Int32? {
        guard parent >= 0 else { return nil }
        var c = entries[Int(parent)].firstChild
        var searched = 0
        while c >= 0 && searched < Self.siblingsSearched {
            searched += 1
            let other = entries[Int(c)].rank
            // Different known ranks are different keys, and equal ones may decide by themselves;
            // otherwise the bytes decide.
            if rank != KeyOrder.unknownRank && other != KeyOrder.unknownRank {
                if rank == other && (rank.decidesEquality || KeyOrder.sameBytes(entries[Int(c)].key, key)) { return c }
            } else if KeyOrder.sameBytes(entries[Int(c)].key, key) {
                return c
            }
            c = entries[Int(c)].nextSibling
        }
        return nil
    }

    /// Adds a child location known to be new (a writer walking the children of a written
    /// object, each once), without searching or linking it.
    mutating func addNewChild(of parent: Int32, key: String, node: DataNode?, resolved: Bool) -> Int32 {
        entries.append(Entry(stored: node, resolved: resolved, parent: parent, key: key))
        return Int32(entries.count - 1)
    }

    /// Appends a child entry and links it under its parent.
    @inline(__always)
    private mutating func link(_ stored: DataNode?, resolved: Bool, parent: Int32, key: String, rank: KeyRank) -> Int32 {
        let index = Int32(entries.count)
        var next: Int32 = -1
        if parent >= 0 {
            if entries[Int(parent)].level >= 0 { return linkBelowOverlay(stored, resolved: resolved, parent: parent, key: key, rank: rank) }
            next = entries[Int(parent)].firstChild
            if parent < markCount { undo.append((parent, next)) }
            entries[Int(parent)].firstChild = index
        }
        entries.append(Entry(stored: stored, resolved: resolved, parent: parent, key: key, rank: rank, firstChild: -1, nextSibling: next))
        return index
    }

    /// ``link(_:resolved:parent:key:rank:)`` below an overlay entry: the child through the
    /// written key is on the path too, and gets the next level (or, at the end of the path, the
    /// written node itself).
    @inline(never)
    private mutating func linkBelowOverlay(_ stored: DataNode?, resolved: Bool, parent: Int32, key: String, rank: KeyRank) -> Int32 {
        let index = Int32(entries.count)
        let next = entries[Int(parent)].firstChild
        if parent < markCount { undo.append((parent, next)) }
        entries[Int(parent)].firstChild = index
        let above = Int(entries[Int(parent)].level)
        if overlay.isPathKey(key, rank: rank, at: above) {
            if above + 1 == overlay.depth && !overlay.writtenIsPending {
                entries.append(Entry(stored: overlay.written(), resolved: true, parent: parent, key: key, rank: rank, firstChild: -1, nextSibling: next))
            } else {
                entries.append(Entry(stored: nil, resolved: false, level: Int8(above + 1), parent: parent, key: key, rank: rank, firstChild: -1, nextSibling: next))
            }
        } else {
            entries.append(Entry(stored: stored, resolved: resolved, parent: parent, key: key, rank: rank, firstChild: -1, nextSibling: next))
        }
        return index
    }

    /// Whether something is stored at the child `key` (of rank `rank`) of an entry's location,
    /// without adding an entry for it.
    @inline(__always)
    mutating func hasChild(of index: Int32, key: String, rank: KeyRank) -> Bool {
        if entries[Int(index)].level >= 0 { return hasChildOnOverlay(of: index, key: key, rank: rank) }
        return node(index)?.child(KeyProbe(key, rank: rank)) != nil
    }

    /// ``hasChild(of:key:rank:)`` for an overlay entry, without building its node.
    @inline(never)
    private func hasChildOnOverlay(of index: Int32, key: String, rank: KeyRank) -> Bool {
        let level = Int(entries[Int(index)].level)
        if overlay.isPathKey(key, rank: rank, at: level) { return overlay.exists(at: level + 1) }
        return overlay.offPathChild(at: level, rank == KeyOrder.unknownRank ? KeyProbe(key) : KeyProbe(key, rank: rank)) != nil
    }

    /// Whether something is stored at an entry's location: ``node(_:)`` is not nil, found
    /// without building an overlay node.
    @inline(__always)
    mutating func exists(_ index: Int32) -> Bool {
        let i = Int(index)
        if entries[i].resolved { return entries[i].stored != nil }
        if entries[i].level >= 0 { return overlay.exists(at: Int(entries[i].level)) }
        return node(index) != nil
    }

    /// Adds the child location `key` of `parent` whose node the caller already holds (it must
    /// be the node at that location).
    mutating func addChild(of parent: Int32, key: String, node: DataNode?, rank: KeyRank = KeyOrder.unknownRank) -> Int32 {
        if let known = existingChild(of: parent, key: key, rank: rank) {
            if !entries[Int(known)].resolved {
                entries[Int(known)].stored = node
                entries[Int(known)].resolved = true
            }
            return known
        }
        return link(node, resolved: true, parent: parent, key: key, rank: rank)
    }

    /// Adds the location at a relative slash path below `parent` (empty segments are skipped).
    package mutating func addDescendant(of parent: Int32, path: String) -> Int32 {
        // Most arguments are one key (`child('uid')`): no "/" byte at all means the split below
        // would give the whole text (or nothing, for ""), so skip it. It works on Characters,
        // which costs far more than the look-up itself.
        var hasSlash = false
        for byte in path.utf8 where byte == UInt8(ascii: "/") {
            hasSlash = true
            break
        }
        if !hasSlash {
            return path.isEmpty ? addDescendant(of: parent, keys: []) : addChild(of: parent, key: path)
        }
        return addDescendant(of: parent, keys: path.split(separator: "/").map(String.init))
    }

    /// Adds the location at a path already split into keys below `parent`.
    package mutating func addDescendant(of parent: Int32, keys: [String]) -> Int32 {
        var current = parent
        for key in keys {
            current = addChild(of: current, key: key)
        }
        if current == parent {
            // `child('')` names no location: an empty snapshot below the receiver.
            entries.append(Entry(stored: nil, resolved: true, parent: parent, key: ""))
            return Int32(entries.count - 1)
        }
        return current
    }

    /// The node stored at an entry's location (nil when nothing is), looked up now if it has
    /// not been, and remembered.
    package mutating func node(_ index: Int32) -> DataNode? {
        let i = Int(index)
        if entries[i].resolved { return entries[i].stored }
        let parent = entries[i].parent
        // An overlay entry's node is built by the overlay; its children off the path are read
        // from the tree before the write, so nothing above them needs resolving.
        if entries[i].level < 0 && parent >= 0 && !entries[Int(parent)].resolved && entries[Int(parent)].level < 0 {
            // Unresolved ancestors are resolved from the top down, in a loop: a path taken from
            // data (`root.child(newData.val())`) can be thousands of keys long, too deep to
            // recurse on.
            var above = parent
            while above >= 0 && !entries[Int(above)].resolved && entries[Int(above)].level < 0 {
                ancestors.append(above)
                above = entries[Int(above)].parent
            }
            while let ancestor = ancestors.popLast() { resolve(ancestor) }
        }
        resolve(index)
        return entries[i].stored
    }

    /// Looks up an entry's node in its parent's, which is resolved (or absent).
    @inline(__always)
    private mutating func resolve(_ index: Int32) {
        let i = Int(index)
        let parent = entries[i].parent
        var node: DataNode?
        if entries[i].level >= 0 {
            node = overlay.node(at: Int(entries[i].level))
        } else if parent >= 0 && entries[Int(parent)].level >= 0 {
            // Off the written path (the key on it gets an overlay entry when linked).
            let rank = entries[i].rank
            let probe = rank == KeyOrder.unknownRank ? KeyProbe(entries[i].key) : KeyProbe(entries[i].key, rank: rank)
            node = overlay.offPathChild(at: Int(entries[Int(parent)].level), probe)
        } else if parent >= 0, let above = entries[Int(parent)].stored {
            let rank = entries[i].rank
            node = rank == KeyOrder.unknownRank ? above.child(entries[i].key) : above.child(KeyProbe(entries[i].key, rank: rank))
        }
        entries[i].stored = node
        entries[i].resolved = true
    }

    /// The node stored at an entry's location, without remembering it (for readers that hold
    /// the table by value, such as tracers). Iterative, as ``node(_:)`` is.
    package func peekNode(_ index: Int32) -> DataNode? {
        var keys: [String] = []
        var i = index
        while !entries[Int(i)].resolved && entries[Int(i)].level < 0 {
            keys.append(entries[Int(i)].key)
            i = entries[Int(i)].parent
            if i < 0 { return nil }
        }
        let level = Int(entries[Int(i)].level)
        var node = entries[Int(i)].resolved ? entries[Int(i)].stored : overlay.peekNode(at: level)
        for key in keys.reversed() {
            guard let current = node else { return nil }
            node = current.child(key)
        }
        return node
    }

    /// The entry at an index.
    @inline(__always)
    package subscript(_ index: Int32) -> Entry { entries[Int(index)] }

    /// The path of an entry, from the root, as keys.
    package func path(of index: Int32) -> [String] {
        var keys: [String] = []
        var i = index
        while i >= 0, entries[Int(i)].parent >= 0 {
            keys.append(entries[Int(i)].key)
            i = entries[Int(i)].parent
        }
        return keys.reversed()
    }
}
