import DatabaseRules

extension ListenerGroup {
    /// The event a write causes for the listeners of a group without a query filter, if they
    /// see a change (a query's window is selected apart, off the namespace's lock: see
    /// ``Namespace``).
    func event(
        shape: WriteShape, old: (root: DataNode?, indexes: NamespaceIndexes),
        new: (root: DataNode?, indexes: NamespaceIndexes), json: ([String]) -> RenderedValue
    ) -> DatabaseEvent? {
        let l = keys
        func node(_ root: DataNode?, _ keys: [String]) -> DataNode? { DataNode.node(root, at: DataPath(keys: keys)) }
        func same(_ keys: [String]) -> Bool { Self.equal(node(old.root, keys), node(new.root, keys)) }
        func wholeLocation() -> DatabaseEvent? {
            same(l) ? nil : .put(path: "/", value: json(l))
        }
        switch shape {
        case .single(let w):
            if w.starts(with: l) {
                return same(w) ? nil : .put(path: Namespace.path(Array(w[l.count...])), value: json(w))
            }
            return l.starts(with: w) ? wholeLocation() : nil
        case .update(let base, let entries):
            if base.starts(with: l) {
                let changed = entries.filter { !same(base + $0.keys) }
                if changed.isEmpty { return nil }
                let members = changed.map { ($0.key, node(new.root, base + $0.keys)) }
                return .patch(path: Namespace.path(Array(base[l.count...])), value: RenderedValue(.members(members)))
            }
            guard l.starts(with: base) else { return nil }
            let full = entries.map { base + $0.keys }
            if full.contains(where: { l.starts(with: $0) }) { return wholeLocation() }
            let below = full.filter { $0.starts(with: l) && !same($0) }
            if below.isEmpty { return nil }
            let members = below.map { ($0[l.count...].joined(separator: "/"), node(new.root, $0)) }
            return .patch(path: "/", value: RenderedValue(.members(members)))
        }
    }

    static func equal(_ a: DataNode?, _ b: DataNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): x === y || x.isEqual(to: y)
        default: false
        }
    }
}
