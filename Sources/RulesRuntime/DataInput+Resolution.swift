extension DataInput {
    /// The stored node this value becomes when written where `existing` is stored now.
    ///
    /// Server values are resolved: a timestamp becomes `now` (milliseconds); an increment becomes
    /// the existing number plus `n`, or `n` when the location is missing or holds no number.
    /// Increments are resolved per location: `{a: increment(1)}` adds to `existing.child("a")`.
    /// A timestamp priority becomes `now`. Nulls and empty objects are pruned; the result is nil
    /// when nothing remains (the write deletes). When a key appears twice the last member wins.
    ///
    /// Values that ``validate(at:)`` rejects are not checked again here; an invalid priority
    /// (a boolean, an object or an increment) is dropped.
    public func resolved(now: Double, existing: DataNode?) -> DataNode? {
        switch self {
        case .null:
            return nil
        case .primitive(let p):
            return DataNode(leaf: p)
        case .serverValue(.timestamp):
            return DataNode(leaf: .number(now))
        case .serverValue(.increment(let n)):
            if case .number(let old)? = existing?.value {
                return DataNode(leaf: .number(old + n))
            }
            return DataNode(leaf: .number(n))
        case .object(let members):
            var pairs: [(String, DataNode)] = []
            pairs.reserveCapacity(members.count)
            for (key, value) in Self.normalized(members) {
                if let node = value.resolved(now: now, existing: existing?.child(key)) {
                    pairs.append((key, node))
                }
            }
            return DataNode.object(pairs)
        case .withPriority(let value, let priority):
            guard let node = value.resolved(now: now, existing: existing) else { return nil }
            return node.withPriority(priority.resolvedPriority(now: now))
        }
    }

    /// Whether resolving this value reads what is stored now: only an increment does.
    var readsExisting: Bool {
        switch self {
        case .null, .primitive, .serverValue(.timestamp): false
        case .serverValue(.increment): true
        case .object(let members): members.contains { $0.1.readsExisting }
        case .withPriority(let value, _): value.readsExisting
        }
    }

    /// Whether the value resolves to one leaf (a primitive or a server value), never to nothing.
    var resolvesToLeaf: Bool {
        switch self {
        case .primitive, .serverValue: true
        case .null, .object, .withPriority: false
        }
    }

    /// The priority this value stands for, or nil for none or an invalid one.
    func resolvedPriority(now: Double) -> Primitive? {
        switch self {
        case .primitive(let p) where p.isValidPriority: p
        case .serverValue(.timestamp): .number(now)
        default: nil
        }
    }
}
