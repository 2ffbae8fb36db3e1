import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `ownership-takeover`: see ``OwnershipTakeoverLint``.
    public static let ownershipTakeover = LintCode(declaring: "ownership-takeover")
}

/// `ownership-takeover`: a signed-in stranger (or anyone) replaces or deletes another user's
/// record, or claims it by naming themselves its owner. One finding per rule that allows it.
/// Where the same rule also lets them wipe the whole collection, `collection-wipe` reports it;
/// where only a delete gets through (a `.validate` stops the replacement),
/// `authorization-in-validate` does.
///
/// Without a model (``Linter/lint(_:file:configuration:modelled:)`` alone), the static check:
/// a record's `.write` or `.validate` compares only the new owner field with
/// the caller (`newData.child('uid').val() === auth.uid`), and no `.write` on the path reads the
/// old value (`data`, or `root` on or below the record) or ties the record's key to the caller
/// (`auth.uid == $wildcard`): anyone may overwrite someone else's record by naming themselves
/// its owner. Only locations at or below a `$wildcard` (records) are considered.
enum OwnershipTakeoverLint: StaticLint, ModelLint {
    static let code = LintCode.ownershipTakeover
    static let category = LintCategory.security
    static let securitySeverity: Double? = 8.1
    /// An owner check in `.validate` under a weak `.write` is reported as
    /// `authorization-in-validate` (the delete): the takeover is the same cause. A rule anyone
    /// may use to write is reported as `public-write`: the takeovers it allows are what that
    /// finding says.
    static let subsumedBy = [LintPrecedence(.authorizationInValidate, .sameRange), LintPrecedence(.publicWrite, .modelledWithin)]
    static let summary = "An owner check that compares only the new owner with the caller."
    static let help =
        "newData.child('uid').val() === auth.uid says who the record will belong to, not who it belongs to: with no .write on the path reading the old value, anyone overwrites someone else's record by naming themselves its owner. Require the old owner in .write too: !data.exists() || data.child('uid').val() === auth.uid."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        var out: [LintFinding] = []
        check(context.tree) { out.append($0) }
        return out
    }

    static func check(_ context: inout ThreatContext) -> [LintFinding] {
        let wipes = Set(context.model.collectionWipes.compactMap(\.decidedBy))
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

    private static func check(_ root: RuleNode, report: (LintFinding) -> Void) {
        visit(root, writes: [], underWildcard: false, report)
    }

    private static func visit(_ node: RuleNode, writes: [(RuleNode, CheckedExpression)], underWildcard: Bool, _ report: (LintFinding) -> Void) {
        var writes = writes
        var blocked = false
        if let w = node.write {
            switch w.body {
            case .expression(let c): writes.append((node, c))
            case .constant(true): blocked = true  // reported as public-write / shadowed-rule instead
            default: break
            }
        }
        let onWildcard = underWildcard || node.path.last?.hasPrefix("$") == true
        if onWildcard, !blocked, !writes.contains(where: { guards($0.1) }) {
            for kind in [RuleKind.write, .validate] {
                guard case .expression(let c)? = node.rule(kind)?.body, let (use, field) = ownerComparison(c) else { continue }
                if kind == .validate, readsOld(c.root, c) { continue }
                report(LintFinding(
                    code: .ownershipTakeover,
                    message: "This checks only the new owner (\(field) == auth.uid), never the old one: any signed-in user can overwrite someone else's \(node.pathDescription) by writing it with their own uid as \(field). Also require the old owner in .write: !data.exists() || data.child('\(field)').val() === auth.uid.",
                    range: c.fileRange(of: use), anchor: "\(node.pathDescription) \(kind.key) takeover",
                    witnessCandidates: candidates(node, field)))
                break
            }
        }
        for (_, child) in node.literalChildren { visit(child, writes: writes, underWildcard: onWildcard, report) }
        if let (_, child) = node.wildcard { visit(child, writes: writes, underWildcard: onWildcard, report) }
    }

    /// A `.write` that looks at the old value, ties the key to the caller, or identifies the
    /// caller some other way (`auth.uid == 'admin'`, `auth.token.admin`): then not everyone
    /// signed in can write.
    private static func guards(_ c: CheckedExpression) -> Bool {
        if readsOld(c.root, c) { return true }
        return containsKeyOwnerTest(c.root, c) || identifiesCaller(c.root, c)
    }

    /// An `auth` property read outside a signed-in test and outside a comparison with a field of
    /// the new value.
    private static func identifiesCaller(_ e: Expression, _ c: CheckedExpression) -> Bool {
        if case .binary(let op, let l, let r, _) = e.kind, op.isEquality {
            func isNull(_ x: Expression) -> Bool { if case .null = x.kind { true } else { false } }
            if isNull(l) || isNull(r) { return false }
            for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(b, c) {
                if case .call(let callee, _) = a.kind, let recv = callee.receiver, WitnessPlanner.newDataPath(recv, c) != nil { return false }
            }
        }
        switch e.kind {
        case .member(let o, _, _), .index(let o, _):
            if c.resolution(of: o) == .auth { return true }
        default: break
        }
        return e.subexpressions.contains { identifiesCaller($0, c) }
    }

    private static func containsKeyOwnerTest(_ e: Expression, _ c: CheckedExpression) -> Bool {
        if case .binary(let op, let l, let r, _) = e.kind, op.isEquality {
            for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(a, c) {
                if case .wildcard? = c.resolution(of: b) { return true }
            }
        }
        return e.subexpressions.contains { containsKeyOwnerTest($0, c) }
    }

    private static func readsOld(_ e: Expression, _ c: CheckedExpression) -> Bool {
        if case .identifier = e.kind, let r = c.resolution(of: e), r == .data || r == .root { return true }
        return e.subexpressions.contains { readsOld($0, c) }
    }

    /// `newData.child('f').val() == auth.uid` (either side, `==`/`===`) anywhere in the rule.
    private static func ownerComparison(_ c: CheckedExpression) -> (Expression, String)? {
        var stack = [c.root]
        while let e = stack.popLast() {
            if case .binary(let op, let l, let r, _) = e.kind, op == .equal || op == .strictEqual {
                for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(b, c) {
                    if case .call(let callee, _) = a.kind, case .call(.val)? = c.resolution(of: a), let recv = callee.receiver,
                        let path = WitnessPlanner.newDataPath(recv, c), !path.isEmpty
                    {
                        return (e, path.joined(separator: "/"))
                    }
                }
            }
            stack += e.subexpressions.reversed()
        }
        return nil
    }

    /// Alice's record exists; Mallory writes it with herself as the owner.
    private static func candidates(_ node: RuleNode, _ field: String) -> [LintWitness] {
        let path = WitnessPlanner.concrete(node.path, fallback: "k1")
        let fieldPath = field.split(separator: "/").map(String.init)
        let old = WitnessPlanner.sample(node, uid: WitnessPlanner.victim).setting(.string(WitnessPlanner.victim), at: fieldPath)
        let new = WitnessPlanner.sample(node, uid: WitnessPlanner.attacker).setting(.string(WitnessPlanner.attacker), at: fieldPath)
        let data = WitnessValue.nested(old, at: WitnessPlanner.segments(path))
        return [LintWitness(identity: .stranger(uid: WitnessPlanner.attacker), data: data, steps: [
            .init(.set, path, value: new, note: "overwrite \(WitnessPlanner.victim)'s record, claiming it"),
        ])]
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
