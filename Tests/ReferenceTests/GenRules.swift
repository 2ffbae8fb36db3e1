import RulesTestSupport

/// A generated rules tree holding expression trees, printed once with minimal parentheses for
/// the compiler and once fully parenthesised for the reference.
struct GenRules {
    var read: GenExpr?
    var write: GenExpr?
    var validate: GenExpr?
    var children: [(String, GenRules)] = []
    /// At most one element (an array so that the type can contain itself).
    var wildcards: [(String, GenRules)] = []
    var wildcard: (String, GenRules)? {
        get { wildcards.first }
        set { wildcards = newValue.map { [$0] } ?? [] }
    }

    func rendered(full: Bool) -> RefRuleNode {
        RefRuleNode(
            read: read?.render(full: full), write: write?.render(full: full), validate: validate?.render(full: full),
            children: children.map { ($0.0, $0.1.rendered(full: full)) },
            wildcard: wildcard.map { ($0.0, $0.1.rendered(full: full)) })
    }

    /// A random tree up to `depth` levels below this one.
    static func random(_ g: inout SplitMix64, depth: Int, variables: [String]) -> GenRules {
        var node = GenRules()
        let reads = ExpressionGenerator(allowNewData: false, variables: variables)
        let writes = ExpressionGenerator(allowNewData: true, variables: variables)
        // Some plain rules, so that a fair share of operations is allowed.
        func rule(_ gen: ExpressionGenerator) -> GenExpr {
            switch g.below(5) {
            case 0: return .atom(g.pick(["true", "true", "false"]), .bool)
            case 1: return gen.bool(&g, 1)
            default: return gen.bool(&g, 2 + g.below(2))
            }
        }
        if g.chance(0.4) { node.read = rule(reads) }
        if g.chance(0.45) { node.write = rule(writes) }
        if g.chance(0.35) { node.validate = rule(writes) }
        guard depth > 0 else { return node }
        for key in ExpressionGenerator.keys where g.chance(0.3) {
            node.children.append((key, random(&g, depth: depth - 1, variables: variables)))
        }
        if g.chance(0.5) {
            let name = "$w\(variables.count)"
            node.wildcard = (name, random(&g, depth: depth - 1, variables: variables + [name]))
        }
        return node
    }

    /// Smaller versions of this tree: one rule dropped, one expression shrunk, one child dropped.
    func smaller() -> [GenRules] {
        var out: [GenRules] = []
        if let w = wildcard {
            var c = self
            c.wildcard = nil
            out.append(c)
            for s in w.1.smaller() {
                var c = self
                c.wildcard = (w.0, s)
                out.append(c)
            }
        }
        for i in children.indices {
            var c = self
            c.children.remove(at: i)
            out.append(c)
            for s in children[i].1.smaller() {
                var c = self
                c.children[i].1 = s
                out.append(c)
            }
        }
        for kp in [\GenRules.read, \GenRules.write, \GenRules.validate] {
            guard let e = self[keyPath: kp] else { continue }
            var c = self
            c[keyPath: kp] = nil
            out.append(c)
            for s in e.smaller() {
                var c = self
                c[keyPath: kp] = s
                out.append(c)
            }
        }
        return out
    }
}
