import DatabaseRules

/// One child in an index: its indexed value and its key, ordered as queries order children (by
/// value, ties by key in ``KeyOrder``).
struct IndexEntry: Sendable {
    /// The child's indexed value.
    let sort: SortValue
    /// The child's key.
    let key: String

    /// Three-way comparison: the indexed values, then the keys.
    @inline(__always)
    func compare(_ other: IndexEntry) -> Int {
        let c = sort.compare(other.sort)
        return c != 0 ? c : KeyOrder.compare(key, other.key)
    }
}
