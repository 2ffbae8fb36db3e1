import RulesCompiler
import RulesSyntax

/// What a ``ModelLint`` reads: the model, and the engine for the decisions it adds.
package struct ThreatContext {
    package var model: AccessModel
    package var runner: AccessRunner
    package var tree: RuleNode
    /// ``foreignRecordWrites()``, once computed (two lints read it).
    private var foreignWrites: [(cell: AccessCell, validate: RuleReference?)]?

    package init(model: AccessModel, runner: AccessRunner, tree: RuleNode) {
        self.model = model
        self.runner = runner
        self.tree = tree
    }

    /// A finding with its witness searched (so it is reported as confirmed).
    static func finding(
        _ code: LintCode, at rule: RuleReference, message: String, anchor: String, witness: LintWitness, related: [LintRelated]
    ) -> LintFinding {
        var f = LintFinding(code: code, message: message, range: rule.range, anchor: anchor)
        f.witness = witness
        f.witnessSearched = true
        var seen = Set<SourceRange>()
        f.related = related.filter { $0.range != rule.range && seen.insert($0.range).inserted }
            .sorted { $0.range.start < $1.range.start }
        return f
    }

    /// Cells by the rule that allowed them, in the order first seen.
    static func grouped(_ cells: [AccessCell]) -> [(rule: RuleReference, cells: [AccessCell])] {
        var order: [RuleReference] = []
        var groups: [RuleReference: [AccessCell]] = [:]
        for c in cells {
            guard let r = c.decidedBy else { continue }
            if groups[r] == nil { order.append(r) }
            groups[r, default: []].append(c)
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// A related location for a location of the model: its key in the file.
    static func related(_ location: AccessLocation, _ message: String) -> LintRelated {
        LintRelated(range: location.node.keyRange, message: message)
    }

    /// Stranger (and anonymous) writes to owned records the rules allow directly, with whether
    /// the stranger's replacement of the record is denied by a `.validate` (then the delete is
    /// the only way through, and the authorization lives in `.validate`).
    mutating func foreignRecordWrites() -> [(cell: AccessCell, validate: RuleReference?)] {
        if let foreignWrites { return foreignWrites }
        var out: [(cell: AccessCell, validate: RuleReference?)] = []
        for c in model.cells where c.location.kind == .record && c.location.isOwned {
            guard c.principal == .stranger || c.principal == .anonymous, c.operation == .update || c.operation == .delete,
                case .allowed = c.verdict
            else { continue }
            var validate: RuleReference?
            if c.operation == .delete, let update = model.cells.first(where: {
                $0.location.node === c.location.node && $0.principal == c.principal && $0.operation == .update
            }), !update.verdict.isAllowed, let w = c.verdict.witness {
                let world = AccessWorld(c.location, links: model.privileges, ownerWildcards: c.location.ownerWildcards)
                let step = LintWitness.Step(.set, world.path, value: AccessWorld.value(c.location, uid: c.principal.uid), note: "")
                if let d = runner.decide(step, data: w.data, identity: c.principal.identity) { validate = runner.denyingValidate(d) }
            }
            out.append((c, validate))
        }
        foreignWrites = out
        return out
    }
}
