import RulesCompiler

/// `authorization-in-validate`: a stranger's replacement of another user's record is stopped
/// only by a `.validate`, which never runs on a delete, so the delete goes through. One finding
/// per rule that allows the delete, with the `.validate` related.
enum ValidateOnlyAuthorizationThreat: AccessThreat {
    static let code = LintCode.authorizationInValidate

    static func findings(_ context: inout ThreatContext) -> [LintFinding] {
        let wipes = Set(CollectionWipeThreat.cells(context.model).compactMap(\.decidedBy))
        let writes = context.foreignRecordWrites().filter { $0.validate != nil && $0.cell.operation == .delete }
        var out: [LintFinding] = []
        var order: [RuleReference] = []
        var groups: [RuleReference: [(AccessCell, RuleReference)]] = [:]
        for (cell, validate) in writes {
            guard let r = cell.decidedBy, !wipes.contains(r), let validate else { continue }
            if groups[r] == nil { order.append(r) }
            groups[r, default: []].append((cell, validate))
        }
        for rule in order {
            let group = groups[rule]!
            let (first, validate) = group[0]
            guard let witness = first.verdict.witness, let step = witness.steps.last else { continue }
            let message = "Only \(validate.description) stops \(first.principal.phrase) from replacing another user's record at \(first.location.path), and .validate never runs on a delete: \(rule.description) (\(rule.text)) admits \(step.summary). Check ownership in .write, which runs for deletes too (compare with data for the old owner)."
            var related = group.map { LintRelated(range: $0.1.range, message: "\($0.1.description) checks what a delete skips") }
            related += group.map { ThreatContext.related($0.0.location, "\($0.0.principal.name) may delete \($0.0.location.path)") }
            out.append(ThreatContext.finding(
                code, at: rule, message: message, anchor: "\(rule.node.pathDescription) \(rule.kind.key) delete", witness: witness, related: related))
        }
        return out
    }
}
