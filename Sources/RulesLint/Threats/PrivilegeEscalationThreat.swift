import RulesCompiler

/// `self-granted-privilege` (privilege escalation): a signed-in stranger gives himself a role, a
/// flag, a membership or a link that another rule trusts, with writes the rules allow (through
/// any branch of an `||`), then does what only its holders may. One finding per privilege, at
/// the rule that lets him write it (the rule to change), with the rules that trust it related.
enum PrivilegeEscalationThreat: AccessThreat {
    static let code = LintCode.selfGrantedPrivilege

    static func findings(_ context: inout ThreatContext) -> [LintFinding] {
        var out: [LintFinding] = []
        var done = Set<Privilege>()
        for cell in context.model.cells {
            guard case .escalated(let witness, let p) = cell.verdict, !done.contains(p), witness.steps.count == 3 else { continue }
            let grant = witness.steps[1]
            guard let decision = context.runner.decide(grant, data: witness.data, identity: witness.identity),
                decision.allowed, let rule = context.runner.granting(decision)
            else { continue }
            done.insert(p)
            let escalated = context.model.cells.filter { if case .escalated(_, let q) = $0.verdict { q == p } else { false } }
            // The example operation: one another rule decides, when there is one.
            let shown = escalated.first { $0.decidedBy != rule && $0.decidedBy?.node !== rule.node } ?? cell
            let example = shown.verdict.witness ?? witness
            let trusted = (context.model.uses[p] ?? []).filter { $0 != rule }
            var related = trusted.map { LintRelated(range: $0.range, message: "\($0.description) trusts \(p.description)") }
            for c in escalated { related.append(ThreatContext.related(c.location, "then \(c.operation.rawValue) at \(c.location.path)")) }
            let act = example.steps.last ?? witness.steps[2]
            let trustedText = trusted.isEmpty ? "another rule" : trusted.prefix(3).map(\.description).joined(separator: ", ")
            let message = "Any signed-in user can give themselves \(p.description): \(rule.description) allows \(grant.summary), and \(trustedText) \(trusted.count == 1 ? "trusts" : "trust") it, so they can then \(act.operation.rawValue) \(act.path)\(escalated.count > 1 ? " (and \(escalated.count - 1) more operations)" : ""). Keep privileges where only administrators write, or forbid changing them in the user's own .write."
            out.append(ThreatContext.finding(
                code, at: rule, message: message, anchor: "\(rule.node.pathDescription) \(rule.kind.key) grants \(p.description)",
                witness: example, related: related))
        }
        return out
    }
}
