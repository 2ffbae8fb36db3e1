import RulesCompiler
import RulesSyntax

/// `public-write`: a `.write` that is true when auth is null, at the root, at depth 1 or over a
/// `$wildcard` collection (``CascadeAnalysis/publicGrants``). When nothing below validates what
/// is stored, the finding says so (one finding for one rule) instead of `unvalidated-write`.
enum PublicWriteLint: ModelWidenedLint {
    static let code = LintCode.publicWrite
    static let category = LintCategory.security
    static let securitySeverity: Double? = 9.1
    static let summary = "A .write that lets anyone, signed in or not, write a large subtree."
    static let help =
        "The rule is true when auth is null, at the root, at depth 1 or over a $wildcard collection. Anyone can overwrite or delete everything under it, and no rule below can take the grant back. Require auth != null and an ownership check."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.publicGrants.filter { $0.kind == .write }.map { finding(code, $0) }
    }

    /// The finding of a public grant, `public-read` or `public-write` by its kind.
    static func finding(_ code: LintCode, _ g: CascadeAnalysis.PublicGrant) -> LintFinding {
        let what = g.node.path.isEmpty ? "the whole database" : "\(g.node.pathDescription) and everything below it"
        let why = g.constant ? "this \(g.kind.key) is true" : "this \(g.kind.key) is true when auth is null"
        let op: LintWitness.Step.Operation = g.kind == .read ? .read : .set
        var message = "Anyone, signed in or not, can \(g.kind == .read ? "read" : "write") \(what): \(why), and no rule below can take the grant back."
        let witnesses = WitnessPlanner.single(g.node, op, identities: [.anonymous], existing: op == .read, note: "granted by this \(g.kind.key)") {
            op == .read ? nil : WitnessPlanner.sample(g.node, uid: $0)
        }
        if let path = g.unvalidatedAt {
            message += " Nothing checks what is stored: there is no .validate at \(path) or below it."
        }
        message += UnvalidatedWriteLint.sameBelow(g.unvalidatedBelow)
        return LintFinding(code: code, message: message, range: g.range, anchor: g.anchor, witnessCandidates: witnesses)
    }

    static func widen(_ context: inout ThreatContext) -> [LintFinding] {
        PublicCells.findings(&context, reads: false)
    }
}
