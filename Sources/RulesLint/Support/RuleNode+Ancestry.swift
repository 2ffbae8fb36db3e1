import RulesCompiler

extension RuleNode {
    /// The rule nodes from this root down to `node` (along its path; as far as the path goes).
    func nodes(to node: RuleNode) -> [RuleNode] {
        var out = [self]
        var n = self
        for k in node.path {
            if let c = n.literalChild(k) {
                n = c
            } else if let w = n.wildcard, w.name == k {
                n = w.node
            } else {
                return out
            }
            out.append(n)
        }
        return out
    }
}
