/// The entries of an index in order: a persistent B+ tree of ``IndexEntry``.
///
/// Immutable: an insert or a removal copies the tree nodes on one root-to-leaf path (at most
/// ``maxSlots`` entries or subtrees each) and shares the rest, so each version of a namespace's
/// data keeps the index version that matches it, and a reader on an older snapshot is never
/// disturbed by a write. Finding where a range starts costs O(log n); each entry after it, O(1).
///
/// Removals do not merge nodes that become small (a node is dropped when it becomes empty): a
/// tree only ever gets as deep as its largest size made it.
final class IndexTree: Sendable {
    /// Most entries in a leaf, and most subtrees under an inner node; a node that grows past it
    /// splits in two.
    static let maxSlots = 64

    /// A leaf's entries, in order (empty for an inner node).
    private let entries: [IndexEntry]
    /// An inner node's subtrees, in order (empty for a leaf).
    private let subtrees: [IndexTree]
    /// An inner node's subtrees' last entries.
    private let lasts: [IndexEntry]
    /// Entries below.
    let count: Int

    private init(entries: [IndexEntry]) {
        self.entries = entries
        self.subtrees = []
        self.lasts = []
        self.count = entries.count
    }

    private init(subtrees: [IndexTree]) {
        self.entries = []
        self.subtrees = subtrees
        self.lasts = subtrees.map { $0.last! }
        self.count = subtrees.reduce(0) { $0 + $1.count }
    }

    private var isLeaf: Bool { subtrees.isEmpty }

    /// The last entry below (nil only for an empty tree).
    var last: IndexEntry? { isLeaf ? entries.last : lasts.last }

    /// An empty tree.
    static let empty = IndexTree(entries: [])

    /// A balanced tree over entries already in order (and distinct).
    static func build(sorted: [IndexEntry]) -> IndexTree {
        if sorted.count <= maxSlots { return IndexTree(entries: sorted) }
        // Nodes three-quarters full leave room for inserts before the first split.
        let size = maxSlots * 3 / 4
        var level: [IndexTree] = stride(from: 0, to: sorted.count, by: size).map {
            IndexTree(entries: Array(sorted[$0..<min($0 + size, sorted.count)]))
        }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: size).map {
                IndexTree(subtrees: Array(level[$0..<min($0 + size, level.count)]))
            }
        }
        return level[0]
    }

    // MARK: - Changes

    /// This tree with `entry` added (an equal entry is replaced).
    func inserting(_ entry: IndexEntry) -> IndexTree {
        let parts = insert(entry)
        return parts.count == 1 ? parts[0] : IndexTree(subtrees: parts)
    }

    /// This tree without `entry`; `self` when it is not there.
    func removing(_ entry: IndexEntry) -> IndexTree {
        guard let result = remove(entry) else { return .empty }
        // A root left with one subtree gives way to it.
        var root = result
        while !root.isLeaf, root.subtrees.count == 1 { root = root.subtrees[0] }
        return root
    }

    /// The node (or, after a split, the two nodes) that replace this one.
    private func insert(_ entry: IndexEntry) -> [IndexTree] {
        if isLeaf {
            let (index, found) = Self.search(entries, entry)
            var copy = entries
            if found { copy[index] = entry } else { copy.insert(entry, at: index) }
            return Self.split(copy, IndexTree.init(entries:))
        }
        let i = subtreeIndex(entry)
        var copy = subtrees
        let parts = subtrees[i].insert(entry)
        copy.replaceSubrange(i...i, with: parts)
        return Self.split(copy, IndexTree.init(subtrees:))
    }

    /// The node that replaces this one without `entry` (nil when it becomes empty).
    private func remove(_ entry: IndexEntry) -> IndexTree? {
        if isLeaf {
            let (index, found) = Self.search(entries, entry)
            guard found else { return self }
            if entries.count == 1 { return nil }
            var copy = entries
            copy.remove(at: index)
            return IndexTree(entries: copy)
        }
        let i = subtreeIndex(entry)
        let sub = subtrees[i]
        let replaced = sub.remove(entry)
        if replaced === sub { return self }
        var copy = subtrees
        if let replaced { copy[i] = replaced } else { copy.remove(at: i) }
        return copy.isEmpty ? nil : IndexTree(subtrees: copy)
    }

    /// One node over `items`, or two halves when there are too many.
    private static func split<T>(_ items: [T], _ make: ([T]) -> IndexTree) -> [IndexTree] {
        if items.count <= maxSlots { return [make(items)] }
        let half = items.count / 2
        return [make(Array(items[..<half])), make(Array(items[half...]))]
    }

    /// Where `entry` is in `items`, or where it would go.
    private static func search(_ items: [IndexEntry], _ entry: IndexEntry) -> (index: Int, found: Bool) {
        var low = 0, high = items.count
        while low < high {
            let mid = (low + high) / 2
            let c = items[mid].compare(entry)
            if c == 0 { return (mid, true) }
            if c < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }

    /// The subtree that holds (or would hold) `entry`: the first whose last entry is not below it.
    private func subtreeIndex(_ entry: IndexEntry) -> Int {
        let i = Self.partition(lasts) { $0.compare(entry) < 0 }
        return min(i, subtrees.count - 1)
    }

    /// The number of leading items for which `below` holds (it must hold for a prefix only).
    private static func partition(_ items: [IndexEntry], _ below: (IndexEntry) -> Bool) -> Int {
        var low = 0, high = items.count
        while low < high {
            let mid = (low + high) / 2
            if below(items[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    // MARK: - Reading

    /// Calls `body` with each entry in order, starting at the first for which `before` is false
    /// (`before` must hold for a prefix of the entries), until `body` returns false. Returns
    /// false when `body` stopped it.
    @discardableResult
    func forEach(from before: (IndexEntry) -> Bool, _ body: (IndexEntry) -> Bool) -> Bool {
        if isLeaf {
            var i = Self.partition(entries, before)
            while i < entries.count {
                if !body(entries[i]) { return false }
                i += 1
            }
            return true
        }
        var i = Self.partition(lasts, before)
        guard i < subtrees.count else { return true }
        if !subtrees[i].forEach(from: before, body) { return false }
        i += 1
        while i < subtrees.count {
            if !subtrees[i].forEach(from: { _ in false }, body) { return false }
            i += 1
        }
        return true
    }

    /// Calls `body` with each entry in reverse order, starting at the last for which `after` is
    /// false (`after` must hold for a suffix of the entries), until `body` returns false.
    /// Returns false when `body` stopped it.
    @discardableResult
    func forEachReversed(from after: (IndexEntry) -> Bool, _ body: (IndexEntry) -> Bool) -> Bool {
        if isLeaf {
            var i = Self.partition(entries) { !after($0) } - 1
            while i >= 0 {
                if !body(entries[i]) { return false }
                i -= 1
            }
            return true
        }
        // The first subtree whose last entry is past the end holds the last entry that is not.
        var i = min(Self.partition(lasts) { !after($0) }, subtrees.count - 1)
        if !subtrees[i].forEachReversed(from: after, body) { return false }
        i -= 1
        while i >= 0 {
            if !subtrees[i].forEachReversed(from: { _ in false }, body) { return false }
            i -= 1
        }
        return true
    }
}
