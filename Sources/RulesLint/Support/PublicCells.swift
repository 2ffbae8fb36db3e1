import RulesCompiler
import RulesSyntax

/// The access model's cells that `public-read` and `public-write` widen to (see
/// ``ModelWidenedLint``): what anyone signed out may read or change at a large location, found
/// with some data, value or query, where the static check finds no grant true whatever the data.
enum PublicCells {
    /// Anyone signed out reading the root, a location at depth 1 or a whole collection (a location
    /// with `$wildcard` children, itself a record of another collection or not); or
    /// replacing or deleting an existing record of a collection, or writing such a location.
    static func cells(_ model: AccessModel, reads: Bool) -> [AccessCell] {
        model.cells.filter { c in
            guard c.principal == .anonymous, case .allowed = c.verdict, c.decidedBy != nil else { return false }
            let large = c.location.isLarge
            // A read the rule lets through only as a query (a page, a window) is one the author
            // wrote for anyone on purpose.
            if reads { return c.operation == .read && large && c.verdict.witness?.steps.last?.query.isEmpty != false }
            switch c.operation {
            case .read, .create: return false
            case .write: return large
            case .update, .delete: return c.location.kind == .record
            }
        }
    }

    /// One finding per rule that allows the cells, except rules the static check reports.
    static func findings(_ context: inout ThreatContext, reads: Bool) -> [LintFinding] {
        let kind: RuleKind = reads ? .read : .write
        let code: LintCode = reads ? .publicRead : .publicWrite
        let reported = Set(CascadeAnalysis(context.tree).publicGrants.filter { $0.kind == kind }.map { RuleReference(node: $0.node, kind: kind) })
        var out: [LintFinding] = []
        let cells = cells(context.model, reads: reads).filter { !holdsNoData($0.location.node, tree: context.tree) }
        for (rule, group) in ThreatContext.grouped(cells) where !reported.contains(rule) {
            guard let witness = group[0].verdict.witness, let step = witness.steps.last else { continue }
            let locations = Array(Set(group.map(\.location.path))).sorted()
            let what = reads ? "read" : "change or delete what others stored at"
            let given = witness.data == nil ? "" : " with the data of the witness"
            let message = "Anyone, signed in or not, can \(what) \(locations.joined(separator: ", ")): \(rule.description) (\(rule.text)) admits \(step.summary)\(given). The rule is not true for everyone whatever the data, but the data, value or query that opens it is one any caller can meet. Require auth != null and check who the caller is."
            let related = group.map { ThreatContext.related($0.location, "anyone signed out may \($0.operation.rawValue) \($0.location.path)") }
            var f = ThreatContext.finding(
                code, at: rule, message: message, anchor: "\(rule.node.pathDescription) \(rule.kind.key) \(code.rawValue) with data", witness: witness,
                related: related)
            f.widened = true
            out.append(f)
        }
        return out
    }

    /// Whether a `.validate` that is `false` at `node` or above it keeps every write from storing
    /// anything there: what a witness finds there is data no client could have written.
    static func holdsNoData(_ node: RuleNode, tree: RuleNode) -> Bool {
        func refuses(_ n: RuleNode) -> Bool {
            switch n.rule(.validate)?.body {
            case .constant(false)?: return true
            case .expression(let c)?: if case .boolean(false) = c.root.kind { return true }
            default: break
            }
            return false
        }
        return tree.nodes(to: node).contains(where: refuses)
    }
}
