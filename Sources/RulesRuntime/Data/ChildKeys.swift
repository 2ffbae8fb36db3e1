/// The keys of a ``ChildTree`` node, in their own allocation: a copy of the node that only
/// replaces a child keeps the same keys, and shares them rather than copying (and retaining)
/// each. Written only while being made.
final class ChildKeys: ManagedBuffer<Int, String> {
    deinit {
        _ = withUnsafeMutablePointers { count, keys in keys.deinitialize(count: count.pointee) }
    }

    /// Keys of which `fill` initialises the first `count` (room for `capacity`, when given).
    @inline(__always)
    static func make(count: Int, capacity: Int? = nil, _ fill: (UnsafeMutablePointer<String>) -> Void) -> ChildKeys {
        let keys = unsafeDowncast(create(minimumCapacity: capacity ?? count) { _ in 0 }, to: ChildKeys.self)
        keys.withUnsafeMutablePointers { stored, to in
            fill(to)
            stored.pointee = count
        }
        return keys
    }

    /// Keys `key(0) ..< key(count)` (room for `capacity`, when given): a node's keys taken from
    /// its slots' ranks, with the one a copy changes.
    static func make(count: Int, capacity: Int? = nil, key: (Int) -> String) -> ChildKeys {
        make(count: count, capacity: capacity) { to in
            for i in 0..<count { (to + i).initialize(to: key(i)) }
        }
    }

    /// The key at `i`.
    subscript(i: Int) -> String {
        withUnsafeMutablePointerToElements { $0[i] }
    }

    /// Byte order of the key at `i` and `key` (see ``KeyOrder/compareStringBytes(_:_:)``).
    func compare(_ i: Int, _ key: String) -> Int {
        withUnsafeMutablePointerToElements { KeyOrder.compareStringBytes($0[i], key) }
    }

    /// Whether the key at `i` and the key at `j` of `other` have the same bytes.
    func sameKey(_ i: Int, as other: ChildKeys, _ j: Int) -> Bool {
        withUnsafeMutablePointerToElements { mine in
            other.withUnsafeMutablePointerToElements { theirs in KeyOrder.sameBytes(mine[i], theirs[j]) }
        }
    }

    /// The first `count` keys of `from` into `to`, with the one at `index` replaced.
    @inline(__always)
    static func copy(_ from: ChildKeys, _ count: Int, replacing index: Int, with key: String, into to: UnsafeMutablePointer<String>) {
        from.withUnsafeMutablePointerToElements { source in
            var i = 0
            while i < count { (to + i).initialize(to: i == index ? key : source[i]); i &+= 1 }
        }
    }

    /// The first `count` keys of `from` into `to`, without the one at `index`.
    @inline(__always)
    static func copy(_ from: ChildKeys, _ count: Int, removing index: Int, into to: UnsafeMutablePointer<String>) {
        from.withUnsafeMutablePointerToElements { source in
            var i = 0
            while i < index { (to + i).initialize(to: source[i]); i &+= 1 }
            while i < count - 1 { (to + i).initialize(to: source[i + 1]); i &+= 1 }
        }
    }

    /// The first `count` keys of `from` into `to`, with `key` inserted at `index`.
    @inline(__always)
    static func copy(_ from: ChildKeys, _ count: Int, inserting key: String, at index: Int, into to: UnsafeMutablePointer<String>) {
        from.withUnsafeMutablePointerToElements { source in
            var i = 0
            while i < index { (to + i).initialize(to: source[i]); i &+= 1 }
            (to + index).initialize(to: key)
            while i < count { (to + i + 1).initialize(to: source[i]); i &+= 1 }
        }
    }
}
