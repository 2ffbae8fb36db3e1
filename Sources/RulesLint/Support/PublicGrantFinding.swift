import RulesCompiler
import RulesSyntax

extension CascadeAnalysis.PublicGrant {
    /// The finding of a public grant, `public-read` or `public-write` by its kind.
    func finding(_ code: LintCode) -> LintFinding {
        let g = self
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
        message += CascadeAnalysis.sameBelow(g.unvalidatedBelow)
        return LintFinding(code: code, message: message, range: g.range, anchor: g.anchor, witnessCandidates: witnesses)
    }
}

extension CascadeAnalysis {
    /// What a finding adds for the `count` writable locations below it with no `.validate` either.
    static func sameBelow(_ count: Int) -> String {
        guard count > 0 else { return "" }
        let rest = count == 1 ? "the .write below it, which has" : "the \(count) .write rules below it, which have"
        return " The same holds for \(rest) no .validate either."
    }
}
