import RulesSyntax

/// A node of the checked rule tree: the rules at one location and its children.
///
/// The tree mirrors the `rules` object: literal children by key, at most one `$wildcard` child.
public final class RuleNode: Sendable {
    /// The rule-path segments from the root, e.g. `["posts", "$postId"]`.
    public let path: [String]
    /// `.read`, if present.
    public let read: Rule?
    /// `.write`, if present.
    public let write: Rule?
    /// `.validate`, if present.
    public let validate: Rule?
    /// The `.indexOn` entries (empty when absent).
    public let indexOn: [String]
    /// Literal children, by key, in source order.
    public let literalChildren: [(key: String, node: RuleNode)]
    /// The wildcard child and its name (with the `$`), if any.
    public let wildcard: (name: String, node: RuleNode)?
    /// The range of this node's object in the file.
    public let range: SourceRange
    /// The range of the key that names this node (empty for the root).
    public let keyRange: SourceRange

    /// Creates a node.
    public init(
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
    public func rule(_ kind: RuleKind) -> Rule? {
        switch kind {
        case .read: read
        case .write: write
        case .validate: validate
        }
    }

    /// The literal child with this key.
    public func literalChild(_ key: String) -> RuleNode? {
        literalChildren.first { $0.key == key }?.node
    }

    /// The path as text, e.g. `/posts/$postId` (`/` for the root).
    public var pathDescription: String { path.isEmpty ? "/" : "/" + path.joined(separator: "/") }

    /// Visits this node and every descendant, parents first.
    public func forEachNode(_ body: (RuleNode) -> Void) {
        var stack: [RuleNode] = [self]
        while let n = stack.popLast() {
            body(n)
            if let w = n.wildcard { stack.append(w.node) }
            for c in n.literalChildren.reversed() { stack.append(c.node) }
        }
    }
}
