/// A child-tree node changed in place, by ``DataNode/write(_:at:in:)``: only while nothing but
/// the writer holds it, so no reader ever sees a node change.
extension ChildTree {
    /// In this tree, which the caller holds alone: the child at `keys[depth]` given `node` at
    /// `keys` below it, each tree node on the way changed in place where nothing else holds it
    /// (else copied), and the counts of data nodes kept. False, with nothing changed, when the
    /// key is not there.
    func write(_ node: DataNode, at keys: [String], from depth: Int) -> Bool {
        write(node, keys, depth, KeyProbe(keys[depth])) != nil
    }

    /// ``write(_:at:from:)`` in this tree node: the change in the number of data nodes below,
    /// or nil when the key is not there.
    private func write(_ node: DataNode, _ keys: [String], _ depth: Int, _ probe: KeyProbe) -> Int? {
        let leaf = isLeaf
        let (i, found) = leaf ? search(probe) : (subIndex(probe), true)
        guard found else { return nil }
        return withUnsafeMutablePointers { header, slots in
            let rank = slots[i].rank
            // The slot's child, moved out: its storage is held by `child` alone if it was by
            // the slot alone.
            var child = (slots + i).move().child
            var delta: Int?
            if leaf {
                let before = child.count
                if depth + 1 == keys.count {
                    child = node
                } else {
                    DataNode.write(node, at: keys, from: depth + 1, in: &child)
                }
                delta = child.count - before
            } else {
                var sub = child.subtree
                child = DataNode.placeholder
                if isKnownUniquelyReferenced(&sub) {
                    delta = sub.write(node, keys, depth, probe)
                } else if let old = sub.find(probe) {
                    // A subtree that another tree shares: copied along the path, as a
                    // persistent write copies it.
                    let new = DataNode.replacing(old, below: keys, from: depth + 1, with: node, ranks: nil, path: 0)!
                    if case .one(let copy) = sub.setting(probe, new, trail: nil, depth: 0) { sub = copy }
                    delta = new.count - old.count
                }
                child = DataNode(subtree: sub)
            }
            (slots + i).initialize(to: ChildSlot(rank: rank, child: child))
            if let delta { header.pointee.nodeCount += delta }
            return delta
        }
    }
}
