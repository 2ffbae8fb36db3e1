import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `authorization-in-validate`: see ``AuthorizationInValidateLint``.
    public static let authorizationInValidate = LintCode(declaring: "authorization-in-validate")
}

/// `authorization-in-validate`: a stranger's replacement of another user's record is stopped
/// only by a `.validate`, which never runs on a delete, so the delete goes through. On the model:
/// one finding per rule that allows the delete, with the `.validate` related. Without a model
/// (``Linter/lint(_:file:configuration:modelled:)`` alone): a `.validate` that compares with
/// `auth` under a `.write` that lets someone delete without that check
/// (``CascadeAnalysis/validatesUnderWeakWrites``).
enum AuthorizationInValidateLint: StaticLint, ModelLint {
    static let code = LintCode.authorizationInValidate
    static let category = LintCategory.security
    static let securitySeverity: Double? = 8.1
    static let summary = "A .validate checks auth, under a .write that lets others delete."
    static let help =
        ".validate never runs when the new value is null, so an ownership check there (auth.uid == newData.child('owner').val()) does not stop a delete: anyone the .write on the path admits can delete the location. Check ownership in .write, which runs for deletes too (compare with data for the old owner)."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.validatesUnderWeakWrites.compactMap { v in
            guard let use = authorizationComparison(v.checked.root, v.checked) else { return nil }
            return LintFinding(
                code: code,
                message: "This .validate checks auth, but .validate never runs when the new value is null: anyone the .write at \(v.weak.path) admits (\(v.weak.text)) can delete \(v.node.pathDescription), whatever this says. Put the check in .write, where it also covers deletes (for a delete, compare with data).",
                range: v.checked.fileRange(of: use), anchor: v.anchor,
                witnessCandidates: WitnessPlanner.single(
                    v.node, .delete, identities: [.stranger(uid: WitnessPlanner.attacker), .anonymous], existing: true,
                    note: "delete \(WitnessPlanner.victim)'s record; .validate does not run"))
        }
    }

    static func check(_ context: inout ThreatContext) -> [LintFinding] {
        let wipes = Set(context.model.collectionWipes.compactMap(\.decidedBy))
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

    /// The first comparison with a property of `auth` that is not a test against null.
    private static func authorizationComparison(_ e: Expression, _ checked: CheckedExpression) -> Expression? {
        if case .binary(let op, let l, let r, _) = e.kind, op.isEquality || op.isRelational {
            func isNull(_ x: Expression) -> Bool { if case .null = x.kind { true } else { false } }
            if !isNull(l), !isNull(r), usesAuthProperty(l, checked) || usesAuthProperty(r, checked) { return e }
            // `root.child('admins/' + auth.uid).val() != null`: a lookup by the caller, not the
            // signed-in test `auth.uid != null`.
            if isNull(l) != isNull(r) {
                let other = isNull(l) ? r : l
                if usesAuthProperty(other, checked), !CascadeAnalysis.isSignedInTest(e, checked) { return e }
            }
        }
        // `hasChild(auth.uid)`, `child('admins/' + auth.uid)`: the caller looked up in the data.
        if case .call(_, let arguments) = e.kind, arguments.contains(where: { usesAuthProperty($0, checked) }) { return e }
        for c in e.subexpressions {
            if let found = authorizationComparison(c, checked) { return found }
        }
        return nil
    }

    /// Whether the expression reads a property of `auth` (`auth.uid`, `auth.token.admin`...).
    private static func usesAuthProperty(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        switch e.kind {
        case .member(let o, _, _), .index(let o, _):
            if checked.resolution(of: o) == .auth { return true }
        default: break
        }
        return e.subexpressions.contains { usesAuthProperty($0, checked) }
    }
}
