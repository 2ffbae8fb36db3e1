import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `weaker-ancestor-grant`: see ``WeakerAncestorGrantLint``.
    public static let weakerAncestorGrant = LintCode(declaring: "weaker-ancestor-grant")
}

/// `weaker-ancestor-grant`: a conditional `.read`/`.write` that is true only when an ancestor's
/// conditional grant of the same kind is true too, so it never decides anything. One finding per
/// grant, at the first rule it voids, listing the others (``CascadeAnalysis/voided``).
enum WeakerAncestorGrantLint: StaticLint {
    static let code = LintCode.weakerAncestorGrant
    static let category = LintCategory.security
    static let securitySeverity: Double? = 6.5
    static let summary = "A .read or .write that an ancestor's conditional grant already implies."
    static let help =
        "Grants cascade: when an ancestor's rule is true, everything below it is granted. If this rule can only be true when the ancestor's is (auth.uid == $uid under auth != null), it never decides anything, and the stricter check it seems to make protects nothing. Narrow the ancestor's rule or move it below."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.voided.map { v in
            let a = v.grant
            let first = v.children[0]
            let verb = v.kind == .read ? "read" : "write"
            var message = "This \(v.kind.key) never decides anything: whenever it is true, the \(v.kind.key) at \(a.path) (\(a.checked.text(of: a.checked.root))) is true too, and that grant already covers everything below it. Everyone it admits can \(verb) here, so the stricter check protects nothing: narrow the rule at \(a.path), or move it below."
            if v.children.count > 1 {
                message += " The same grant voids the \(v.kind.key) rules at " + v.children.dropFirst().map { $0.node.pathDescription }.joined(separator: ", ") + "."
            }
            let op: LintWitness.Step.Operation = v.kind == .read ? .read : .set
            let note = "allowed by the \(v.kind.key) at \(a.path), whatever the rule at \(first.node.pathDescription) says"
            var candidates = WitnessPlanner.single(first.node, op, identities: [.stranger(uid: WitnessPlanner.attacker), .anonymous], note: note) {
                op == .read ? nil : WitnessPlanner.sample(first.node, uid: $0)
            }
            // The ancestor may grant on the old data (`data.child('owner').val() === auth.uid`):
            // Mallory owns the ancestor's record, not the child's.
            let me = WitnessPlanner.attacker
            let ancestorPath = WitnessPlanner.concrete(a.node.path, fallback: "k1")
            let childPath = WitnessPlanner.concrete(first.node.path, fallback: "k1")
            candidates.append(LintWitness(
                identity: .stranger(uid: me), data: .nested(WitnessPlanner.sample(a.node, uid: me), at: WitnessPlanner.segments(ancestorPath)),
                steps: [.init(op, childPath, value: op == .read ? nil : WitnessPlanner.sample(first.node, uid: me), note: note)]))
            return LintFinding(code: code, message: message, range: first.range, anchor: first.anchor, witnessCandidates: candidates)
        }
    }
}
