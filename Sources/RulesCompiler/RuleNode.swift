import RulesSyntax

/// A node of the checked rule tree: the rules at one location and its children.
///
/// The tree mirrors the `rules` object: literal children by key, at most one `$wildcard` child.
package final class RuleNode: Sendable {
    /// The rule-path segments from the root, e.g. `["posts", "$postId"]`.
    package let path: [String]
    /// `.read`, if present.
    package let read: Rule?
    /// `.write`, if present.
    package let write: Rule?
    /// `.validate`, if present.
    package let validate: Rule?
    /// The `.indexOn` entries (empty when absent).
    package let indexOn: [String]
    /// Literal children, by key, in source order.
    package let literalChildren: [(key: String, node: RuleNode)]
    /// The wildcard child and its name (with the `$`), if any.
    package let wildcard: (name: String, node: RuleNode)?
    /// The range of this node's object in the file.
    package let range: SourceRange
    /// The range of the key that names this node (empty for the root).
    package let keyRange: SourceRange

    /// Creates a node.
    package init(
        path: [String], read: Rule?, write: Rule?, validate: Rule?, indexOn: [String],
        literalChildren: [(key: String, node: RuleNode)], wildcard: (name: String, node: RuleNode)?,
        range: SourceRange, keyRange: SourceRange
    ) {
        self.path = path
        self.read = read
        self.write = write
        self.validate = validate
        self.indexOn = indexOn
        self.literalChildren = literalChildren
        self.wildcard = wildcard
        self.range = range
        self.keyRange = keyRange
    }

    /// The rule of a kind.
    package func rule(_ kind: RuleKind) -> Rule? {
        switch kind {
        case .read: read
        case .write: write
        case .validate: validate
        }
    }

    /// The literal child with this key.
    package func literalChild(_ key: String) -> RuleNode? {
        literalChildren.first { $0.key == key }?.node
    }

    /// The path as text, e.g. `/posts/$postId` (`/` for the root).
    package var pathDescription: String { path.isEmpty ? "/" : "/" + path.joined(separator: "/") }

    /// Visits this node and every descendant, parents first.
    package func forEachNode(_ body: (RuleNode) -> Void) {
        var stack: [RuleNode] = [self]
        while let n = stack.popLast() {
            body(n)
            if let w = n.wildcard { stack.append(w.node) }
            for c in n.literalChildren.reversed() { stack.append(c.node) }
        }
    }
}
