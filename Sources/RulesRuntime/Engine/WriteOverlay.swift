/// The tree after a single-path write, described rather than built: the tree before the write
/// along the written path, and the node written at its end. A write is decided against it
/// (``SnapshotTable`` resolves `newData` through it), and the new tree's nodes on the path are
/// built only when somebody needs one whole: a rule reading an ancestor of the written location
/// as a value, or the engine once the write is allowed. Each level is built once, from the
/// written node up, and shares everything off the path with the tree before.
///
/// So a denied write builds nothing, and an allowed one builds its path once. Kept in the
/// scratch between decisions (capacity only: ``clear()`` drops every node).
struct WriteOverlay: Sendable {
    /// The written path's keys.
    private(set) var keys: [String] = []
    /// `[i]` is the node at `keys[..<i]` in the tree before the write (nil where nothing is
    /// stored), as ``DataNode/pathNodes(_:_:into:trails:ranks:)`` finds them.
    var oldPath: [DataNode?] = []
    /// Where each level's child on the path is in its parent's child tree (see
    /// ``DataNode/pathNodes(_:_:into:trails:ranks:)``); plain integers, never cleared.
    var trails: [Int32] = []
    /// `[i]` is the rank of `keys[i]` (see ``DataNode/pathNodes(_:_:into:trails:ranks:)``);
    /// plain values, never cleared.
    var ranks: [KeyRank] = []
    /// `[i]` is the node at `keys[..<i]` in the tree after the write, for `i >= builtFrom`.
    private var built: [DataNode?] = []
    /// The shallowest level built so far; `keys.count` (only the written node) at first.
    private var builtFrom = 0
    /// A written leaf not made yet (see ``begin(_:writingLeaf:now:)``), and the time that
    /// resolves its server value.
    private var pending: DataInput?
    private var pendingNow = 0.0

    /// Starts describing the write of `node` at `keys`; `oldPath` and `trails` must already hold
    /// that path in the tree before the write.
    mutating func begin(_ keys: [String], writing node: DataNode?) {
        self.keys = keys
        built.clearKeepingCapacity()
        for _ in 0..<keys.count { built.append(nil) }
        built.append(node)
        builtFrom = keys.count
    }

    /// Starts describing the write of a value that resolves to one leaf, which is made only
    /// when somebody reads it: a write denied before any rule reads its new value allocates
    /// nothing.
    mutating func begin(_ keys: [String], writingLeaf input: DataInput, now: Double) {
        begin(keys, writing: nil)
        pending = input
        pendingNow = now
    }

    /// Makes the written leaf if it is still pending.
    @inline(__always)
    private mutating func makeWritten() {
        guard let input = pending else { return }
        built[keys.count] = input.resolved(now: pendingNow, existing: oldPath[keys.count])
        pending = nil
    }

    /// Drops every key and node, keeping the storage.
    mutating func clear() {
        // Nothing was described since the last clear (a read, an update).
        if oldPath.isEmpty && built.isEmpty { return }
        pending = nil
        // Let go of the keys: they are the caller's array, which must be unshared again before
        // its next write (emptying a shared array in place would copy it).
        keys = []
        oldPath.clearKeepingCapacity()
        built.clearKeepingCapacity()
        builtFrom = 0
    }

    /// The number of keys on the written path.
    var depth: Int { keys.count }

    /// Whether `key` is the path's key at `level` (the child of the level's node that the
    /// write goes through).
    /// `rank` is the key's rank, or ``KeyOrder/unknownRank``: known ranks that differ, or that
    /// are equal and decide equality, settle it without reading the bytes.
    @inline(__always)
    func isPathKey(_ key: String, rank: KeyRank, at level: Int) -> Bool {
        guard level < keys.count else { return false }
        if rank != KeyOrder.unknownRank {
            if rank != ranks[level] { return false }
            if rank.decidesEquality { return true }
        }
        return KeyOrder.sameBytes(keys[level], key)
    }

    /// The written node (the new tree's node at the end of the path), made now if pending.
    mutating func written() -> DataNode? {
        makeWritten()
        return built[keys.count]
    }

    /// Whether the written node is a leaf not made yet.
    var writtenIsPending: Bool { pending != nil }

    /// Whether the new tree has a node at level `level >= builtFrom`.
    @inline(__always)
    private func builtExists(_ level: Int) -> Bool {
        if level == keys.count && pending != nil { return true }
        return built[level] != nil
    }

    /// The new tree's node at `keys[..<level]`, built now (with the levels below it) if it has
    /// not been.
    mutating func node(at level: Int) -> DataNode? {
        makeWritten()
        if level >= builtFrom { return built[level] }
        var l = builtFrom - 1
        while l >= level {
            built[l] = Self.parent(oldPath[l], keys[l], child: built[l + 1], oldChild: oldPath[l + 1], trails, l)
            l -= 1
        }
        builtFrom = level
        return built[level]
    }

    /// ``node(at:)`` without remembering what it builds (for readers holding the table by value).
    func peekNode(at level: Int) -> DataNode? {
        var copy = self
        copy.makeWritten()
        if level >= builtFrom { return copy.built[level] }
        var child = copy.built[builtFrom]
        var l = builtFrom - 1
        while l >= level {
            child = Self.parent(oldPath[l], keys[l], child: child, oldChild: oldPath[l + 1], trails, l)
            l -= 1
        }
        return child
    }

    /// Whether the new tree has a node at `keys[..<level]`, without building it: it does when
    /// the level below does, or when the node before the write keeps something besides the
    /// written child (a leaf stays a leaf when a write below it deletes).
    func exists(at level: Int) -> Bool {
        if level >= builtFrom { return builtExists(level) }
        var l = level
        while l < builtFrom {
            if let before = oldPath[l], before.isLeaf || before.childCount > (oldPath[l + 1] == nil ? 0 : 1) { return true }
            l += 1
        }
        return builtExists(builtFrom)
    }

    /// The node at `key` below `level`'s node in the new tree, for a key off the written path:
    /// the same as before the write.
    /// At the end of the path, the written node's child (none for a pending leaf).
    @inline(__always)
    func offPathChild(at level: Int, _ probe: KeyProbe) -> DataNode? {
        if level == keys.count { return pending != nil ? nil : built[level]?.child(probe) }
        return oldPath[level]?.child(probe)
    }

    /// `parent` (a node before the write) with its child at `key` replaced by `child`, which
    /// replaces `oldChild`: the parent itself when the child is the same, following the trail
    /// found on the way down when there is one.
    private static func parent(_ parent: DataNode?, _ key: String, child: DataNode?, oldChild: DataNode?,
                               _ trails: [Int32], _ level: Int) -> DataNode? {
        if child === oldChild { return parent }
        return DataNode.replacingChild(of: parent, key, with: child, trails: trails, level: level)
    }
}
