import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `unvalidated-write`: see ``UnvalidatedWriteLint``.
    public static let unvalidatedWrite = LintCode(declaring: "unvalidated-write")
}

/// `unvalidated-write`: a `.write` that can be true, with no `.validate` at its location or below
/// it, that neither only deletes, nor checks the new value itself, nor admits only
/// administrators (``CascadeAnalysis/unvalidatedWrites``). One finding stands for the writes
/// below it with no `.validate` either.
enum UnvalidatedWriteLint: StaticLint {
    static let code = LintCode.unvalidatedWrite
    static let category = LintCategory.security
    static let securitySeverity: Double? = 5.3
    static let summary = "A writable location with no .validate on it or below it."
    static let help =
        "Whoever may write here can store any value of any shape and size. Add a .validate for the expected type, and close objects with \"$other\": {\".validate\": false}."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.unvalidatedWrites.map { w in
            let path = w.node.pathDescription
            let note = "store a value of any shape"
            return LintFinding(
                code: code,
                message: "Whoever this .write admits can store any value at \(path): there is no .validate at \(path) or below it." + CascadeAnalysis.sameBelow(w.below),
                range: w.range, anchor: w.anchor,
                // No candidate starts with the caller already holding a privilege the data
                // grants: a location only privileged users write is not "anyone's", and a
                // privilege anyone can give themselves is reported as its escalation.
                witnessCandidates: WitnessPlanner.single(w.node, .set, note: note) { _ in WitnessPlanner.junk }
                    + WitnessPlanner.single(w.node, .set, existing: true, note: note) { _ in WitnessPlanner.junk })
        }
    }
}
