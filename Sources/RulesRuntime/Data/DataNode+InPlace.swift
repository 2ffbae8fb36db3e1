/// Writes that change a tree in place where nothing else holds it.
///
/// A tree is a value: every copy of a root (a snapshot, a reader's variable, a decision's
/// `newRoot`) keeps its version unchanged. A write through ``write(_:at:in:)`` gives exactly
/// the tree that ``replacing(_:at:with:)`` would, but an object or child-tree node on the
/// written path that is referenced only from the path (so by nothing a reader could still
/// see) is changed where it is, instead of copied with every sibling reference retained. The
/// nodes that something else holds are copied, as ``replacing(_:at:with:)`` copies them.
extension DataNode {
    /// `root` with the node at `keys` replaced by `node`: the tree that
    /// ``replacing(_:at:with:)`` returns, written in place where nothing else holds the nodes
    /// on the path (see above). A delete, or a write that makes a missing ancestor, copies
    /// as ``replacing(_:at:with:)`` does from the level where the path stops being there.
    package static func write(_ node: DataNode?, at keys: [String], in root: inout DataNode?) {
        guard let node, !keys.isEmpty, var slot = root else {
            root = replacing(root, below: keys, from: 0, with: node, ranks: nil, path: 0)
            return
        }
        // The only reference to the root's storage is now `slot`'s, if it was `root`'s.
        root = nil
        write(node, at: keys, from: 0, in: &slot)
        root = slot
    }

    /// The placeholder a slot or variable holds while its storage is taken out to be changed: a
    /// leaf, which holds no reference.
    static var placeholder: DataNode { DataNode(leaf: .bool(false)) }

    /// ``write(_:at:in:)`` below `slot`, the node at `keys[..<depth]` (`depth < keys.count`).
    static func write(_ node: DataNode, at keys: [String], from depth: Int, in slot: inout DataNode) {
        // A leaf, or a node with a priority (a box that few nodes have), is copied.
        guard var tree = slot.plainChildTree else {
            slot = replacing(slot, below: keys, from: depth, with: node, ranks: nil, path: 0)!
            return
        }
        // `tree` is the only reference left if `slot`'s was.
        slot = placeholder
        if isKnownUniquelyReferenced(&tree) {
            if !tree.write(node, at: keys, from: depth) {
                // The key is not there: inserted by a copy of this object's tree path.
                let child = replacing(nil, below: keys, from: depth + 1, with: node, ranks: nil, path: 0)
                tree = tree.settingRoot(KeyProbe(keys[depth]), child)!
            }
            slot = DataNode(children: tree, priority: nil)
        } else {
            slot = replacing(DataNode(children: tree, priority: nil), below: keys, from: depth, with: node, ranks: nil, path: 0)!
        }
    }
}
