import RulesCompiler

/// `ownership-takeover`: a signed-in stranger (or anyone) replaces or deletes another user's
/// record, or claims it by naming themselves its owner. One finding per rule that allows it.
/// Where the same rule also lets them wipe the whole collection, `collection-wipe` reports it;
/// where only a delete gets through (a `.validate` stops the replacement),
/// `authorization-in-validate` does.
enum TakeoverThreat: AccessThreat {
    static let code = LintCode.ownershipTakeover

    static func findings(_ context: inout ThreatContext) -> [LintFinding] {
        let wipes = Set(CollectionWipeThreat.cells(context.model).compactMap(\.decidedBy))
        let writes = context.foreignRecordWrites()
        let validateOnly = Set(writes.filter { $0.validate != nil }.compactMap { $0.cell.decidedBy })
        let cells = writes.map(\.cell).filter { c in
            guard let r = c.decidedBy else { return false }
            return !wipes.contains(r) && !(validateOnly.contains(r) && c.operation == .delete)
        }
        var out: [LintFinding] = []
        for (rule, group) in ThreatContext.grouped(cells) {
            let first = group.first { $0.operation == .update } ?? group[0]
            guard let witness = first.verdict.witness, let step = witness.steps.last else { continue }
            let what = Set(group.map(\.operation)).count == 2 ? "replace or delete" : (first.operation == .update ? "replace" : "delete")
            let locations = Array(Set(group.map(\.location.path))).sorted()
            let message = "\(first.principal.phrase.capitalizedFirst) can \(what) another user's record at \(locations.joined(separator: ", ")): \(rule.description) (\(rule.text)) admits \(step.summary) over the owner's record. Check the old owner in .write (!data.exists() || data.child('uid').val() === auth.uid), or key records by auth.uid."
            let related = group.map { ThreatContext.related($0.location, "\($0.principal.name) may \($0.operation.rawValue) \($0.location.path)") }
            out.append(ThreatContext.finding(
                code, at: rule, message: message, anchor: "\(rule.node.pathDescription) \(rule.kind.key) takeover", witness: witness, related: related))
        }
        return out
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
