/// The ``KeyRank`` of every key of several paths (an update's entries), computed once and read
/// by each step that looks the keys up: the merge into the new tree, the value an increment
/// adds to, and the permission walk. One flat list of plain values, so a table kept between
/// decisions is emptied without releasing anything.
struct PathRanks: Sendable {
    /// The ranks of all paths' keys, path after path.
    private var ranks: [KeyRank] = []
    /// Where each path's ranks start in `ranks`.
    private var starts: [Int] = []

    init() {}

    /// The ranks of `paths`' keys.
    init(_ paths: some Sequence<[String]>) {
        for keys in paths { append(keys) }
    }

    /// Forgets every path, keeping the storage.
    mutating func removeAll() {
        ranks.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// Adds the next path.
    mutating func append(_ keys: [String]) {
        starts.append(ranks.count)
        for key in keys { ranks.append(KeyOrder.rank(key)) }
    }

    /// The rank of key `depth` of path `path`.
    @inline(__always)
    func rank(_ path: Int, _ depth: Int) -> KeyRank { ranks[starts[path] + depth] }
}
