/// Working storage for decisions, reused from one decision to the next by a caller that makes
/// many (one per thread or per connection): the VM stack, the snapshot table and the path and
/// wildcard buffers keep their capacity, so a read decision allocates nothing once warm.
///
/// A value type owned by the caller: nothing is shared between threads, and passing it
/// `inout` makes two simultaneous uses of one scratch a compile-time error.
public struct DecisionScratch: Sendable {
    var vm = VM()
    var snaps = SnapshotTable()
    var keys: [String] = []
    var wildcardKeys: [String] = []
    var chain: [(depth: Int, node: Int32, old: Int32, new: Int32, wildcards: Int)] = []
    var oldPath: [DataNode?] = []
    var newPath: [DataNode?] = []

    /// Creates empty scratch storage.
    public init() {}

    /// Drops references into data trees (snapshots, stack values) but keeps the capacity, so a
    /// scratch kept between requests does not hold old trees alive.
    mutating func clear() {
        snaps.reset()
        vm.clear()
        keys.clearKeepingCapacity()
        wildcardKeys.clearKeepingCapacity()
        chain.clearKeepingCapacity()
        oldPath.clearKeepingCapacity()
        newPath.clearKeepingCapacity()
    }
}
