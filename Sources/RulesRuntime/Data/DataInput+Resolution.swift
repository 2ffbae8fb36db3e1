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
    package func resolved(now: Double, existing: DataNode?) -> DataNode? {
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

    /// Why writing this value where `existing` is stored now must be refused, or nil: an
    /// increment whose sum is not a finite number (JSON has no infinity, so it could be neither
    /// read back nor stored). The stored number is not named: the caller may not be allowed to
    /// read it.
    package func overflow(existing: DataNode?, at keys: [String]) -> String? {
        switch self {
        case .null, .primitive, .serverValue(.timestamp):
            return nil
        case .serverValue(.increment(let n)):
            guard case .number(let old)? = existing?.value, !(old + n).isFinite else { return nil }
            return "increment at \(DataText.shownPath(keys)) would overflow: adding \(JSNumberFormatter.string(n)) to the stored number does not give a finite number."
        case .object(let members):
            var path = keys
            for (key, value) in Self.normalized(members) where value.readsExisting {
                path.append(key)
                if let problem = value.overflow(existing: existing?.child(key), at: path) { return problem }
                path.removeLast()
            }
            return nil
        case .withPriority(let value, _):
            return value.overflow(existing: existing, at: keys)
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
