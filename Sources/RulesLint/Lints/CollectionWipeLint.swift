import RulesCompiler

extension LintCode {
    /// `collection-wipe`: see ``CollectionWipeLint``.
    public static let collectionWipe = LintCode(declaring: "collection-wipe")
}

/// `collection-wipe`: a principal who owns nothing there (a signed-in stranger, or anyone)
/// replaces or deletes a whole collection of other users' records. One finding per rule that
/// allows it.
enum CollectionWipeLint: ModelLint {
    static let code = LintCode.collectionWipe
    static let category = LintCategory.security
    static let securitySeverity: Double? = 8.6
    /// A rule anyone may use to write is reported as `public-write`: the wipes it allows are what
    /// that finding says.
    static let subsumedBy = [LintPrecedence(.publicWrite, .modelledWithin)]
    static let summary = "A principal may replace or delete a whole collection of other users' records."
    static let help =
        "A .write at or above a collection that admits someone who owns nothing there (a signed-in stranger, or anyone) lets them delete the collection or replace it with their own records, everyone else's with it. Grant writes at each record ($wildcard), to its owner, and keep collection-level writes for administrators."

    static func check(_ context: inout ThreatContext) -> [LintFinding] {
        var out: [LintFinding] = []
        for (rule, group) in ThreatContext.grouped(context.model.collectionWipes) {
            let first = group.first { $0.principal == .anonymous } ?? group[0]
            guard let witness = first.verdict.witness, let step = witness.steps.last else { continue }
            let locations = Array(Set(group.map(\.location.path))).sorted()
            let message = "\(first.principal.phrase.capitalizedFirst) can replace or delete every user's records at \(locations.joined(separator: ", ")) at once: \(rule.description) (\(rule.text)) admits \(step.summary) with the owner's record inside. Grant writes per record, to its owner, not on the collection."
            let related = group.map { ThreatContext.related($0.location, "\($0.principal.name) may write the whole of \($0.location.path)") }
            out.append(ThreatContext.finding(
                code, at: rule, message: message, anchor: "\(rule.node.pathDescription) \(rule.kind.key) collection-wipe", witness: witness, related: related))
        }
        return out
    }
}
