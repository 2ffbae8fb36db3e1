import DatabaseRules

/// A query's range over ordered children: the children below its start and above its end are
/// left out. A bound compares a child's indexed value first; among children with the bound's
/// value, its name decides (the SDKs' key tie-breaker; REST's bounds have none and keep every
/// child with the value). Ordering by key compares the key with the bound alone.
struct QueryRange {
    /// Whether the children are ordered by key.
    let byKey: Bool
    /// The start (nil: from the first child).
    let low: SortValue?
    let lowName: Query.Name
    let lowInclusive: Bool
    /// The end (nil: to the last child).
    let high: SortValue?
    let highName: Query.Name
    let highInclusive: Bool

    /// Whether `entry` comes before the start.
    func isBelow(_ entry: IndexEntry) -> Bool {
        guard let low else { return false }
        let c = compare(entry, low, lowName)
        return c < 0 || (c == 0 && !lowInclusive)
    }

    /// Whether `entry` comes after the end.
    func isAbove(_ entry: IndexEntry) -> Bool {
        guard let high else { return false }
        let c = compare(entry, high, highName)
        return c > 0 || (c == 0 && !highInclusive)
    }

    /// Compares a child with a bound: by indexed value, then by key against the bound's name.
    private func compare(_ entry: IndexEntry, _ value: SortValue, _ name: Query.Name) -> Int {
        let c = entry.sort.compare(value)
        if c != 0 || byKey { return c }
        switch name {
        case .min: return 1
        case .max: return -1
        case .key(let key): return KeyOrder.compare(entry.key, key)
        }
    }
}
