import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `self-granted-privilege`: see ``SelfGrantedPrivilegeLint``.
    public static let selfGrantedPrivilege = LintCode(declaring: "self-granted-privilege")
}

/// `self-granted-privilege` (privilege escalation): a signed-in stranger gives himself a role, a
/// flag, a membership or a link that another rule trusts, with writes the rules allow (through
/// any branch of an `||`), then does what only its holders may. One finding per privilege, at
/// the rule that lets him write it (the rule to change), with the rules that trust it related.
///
/// Without a model (``Linter/lint(_:file:configuration:modelled:)`` alone), the static check:
/// a `.read`/`.write` that grants by looking the caller up in the data
/// (`root.child('users').child(auth.uid).child('role').val() === 'admin'`,
/// `root.child('rooms/' + $room + '/members').hasChild(auth.uid)`), where the looked-up location
/// is one the caller may write: a `.write` at or above it, at or below the `$wildcard` that takes
/// the caller's uid, has the top-level conjunct `auth.uid == $wildcard`, and no `.validate` there
/// reads the old value. One finding per looked-up location, at its first use, listing the others.
enum SelfGrantedPrivilegeLint: StaticLint, ModelLint {
    static let code = LintCode.selfGrantedPrivilege
    static let category = LintCategory.security
    static let securitySeverity: Double? = 8.8
    static let summary = "A grant that looks the caller up in data the caller can write."
    static let help =
        "The rule grants when root.child(...).child(auth.uid)... holds (a role, an admin flag, a membership), and a .write lets each user write that location under their own uid. Any user sets the value, then passes the rule. Keep privileges where only administrators write, or forbid changing them in the user's own .write."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        var out: [LintFinding] = []
        check(context.tree) { out.append($0) }
        return out
    }

    static func check(_ context: inout ThreatContext) -> [LintFinding] {
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

    private struct Use {
        var node: RuleNode
        var kind: RuleKind
        var checked: CheckedExpression
        var lookup: RootLookup
    }

    private static func check(_ root: RuleNode, report: (LintFinding) -> Void) {
        var uses: [String: [Use]] = [:]
        var order: [String] = []
        root.forEachNode { node in
            for kind in [RuleKind.read, .write] {
                guard case .expression(let checked)? = node.rule(kind)?.body else { continue }
                for l in RootLookup.all(in: checked.root, checked) where l.mentionsCaller {
                    let key = l.description
                    if uses[key] == nil { order.append(key) }
                    uses[key, default: []].append(Use(node: node, kind: kind, checked: checked, lookup: l))
                }
            }
        }
        for key in order {
            guard let list = uses[key], let first = list.first,
                let writable = selfWritable(first.lookup.segments, root: root)
            else { continue }
            let others = list.dropFirst().map { "the \($0.kind.key) at \($0.node.pathDescription)" }
            var message = "This grants by \(key), which each user can write for themselves: the .write at \(writable.path.pathDescription) (\(writable.text)) lets any signed-in user set their own \(key), then pass this \(first.kind.key)."
            if !others.isEmpty { message += " The same lookup grants \(Array(Set(others)).sorted().joined(separator: ", "))." }
            message += " Keep privileges where only administrators write (or forbid changing them in the user's own .write)."
            report(LintFinding(
                code: .selfGrantedPrivilege, message: message, range: first.checked.fileRange(of: first.lookup.use),
                anchor: "\(first.node.pathDescription) \(first.kind.key) \(key)",
                witnessCandidates: candidates(first, writable)))
        }
    }

    /// The `.write` that lets a user write the looked-up location under their own uid.
    private struct Writable {
        var path: RuleNode
        var text: String
        /// The node the lookup lands on (or the deepest one on its way).
        var target: RuleNode
        /// The node of the `$wildcard` that takes the caller's uid.
        var owner: RuleNode
        var ownerWildcard: String
    }

    private static func selfWritable(_ segments: [RootLookup.Segment], root: RuleNode) -> Writable? {
        var node = root
        var chain: [RuleNode] = [root]
        var ownerIndex: Int?
        var ownerName = ""
        walk: for s in segments {
            switch s {
            case .key(let k):
                if let c = node.literalChild(k) { node = c } else if let w = node.wildcard { node = w.node } else { break walk }
            case .caller:
                guard let w = node.wildcard else { return nil }
                ownerIndex = chain.count
                ownerName = w.name
                node = w.node
            case .wildcard:
                guard let w = node.wildcard else { return nil }
                node = w.node
            }
            chain.append(node)
        }
        guard let ownerIndex else { return nil }
        // A .validate on the looked-up location that reads the old value may keep it unchanged.
        if case .expression(let c)? = node.validate?.body, readsOld(c.root, c) { return nil }
        for n in chain[ownerIndex...] {
            guard case .expression(let c)? = n.write?.body else { continue }
            let conjuncts: [Expression] = if case .logical(.and, let list) = c.root.kind { list } else { [c.root] }
            if conjuncts.contains(where: { isOwnerTest($0, ownerName, c) }) {
                return Writable(path: n, text: c.text(of: c.root), target: node, owner: chain[ownerIndex], ownerWildcard: ownerName)
            }
        }
        return nil
    }

    /// `auth.uid == $w` (either side, `==` or `===`).
    static func isOwnerTest(_ e: Expression, _ wildcard: String, _ c: CheckedExpression) -> Bool {
        guard case .binary(let op, let l, let r, _) = e.kind, op == .equal || op == .strictEqual else { return false }
        for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(a, c) {
            if case .identifier(let name) = b.kind, name == wildcard, case .wildcard? = c.resolution(of: b) { return true }
        }
        return false
    }

    /// Whether the expression reads `data` or `root` (the old value).
    private static func readsOld(_ e: Expression, _ c: CheckedExpression) -> Bool {
        if case .identifier = e.kind, let r = c.resolution(of: e), r == .data || r == .root { return true }
        return e.subexpressions.contains { readsOld($0, c) }
    }


    /// Mallory, signed in: the protected operation is denied; she writes her own privilege (the
    /// field alone, or her whole record with it); then the protected operation is allowed.
    private static func candidates(_ use: Use, _ w: Writable) -> [LintWitness] {
        let me = WitnessPlanner.attacker
        var keys: [String: String] = [:]
        for s in use.node.path where s.hasPrefix("$") { keys[s] = "k1" }
        keys[w.ownerWildcard] = keys[w.ownerWildcard] ?? "k1"
        let protected = WitnessPlanner.concrete(use.node.path, keys: keys, fallback: "k1")
        var lookupSegments: [String] = []
        for s in use.lookup.segments {
            switch s {
            case .key(let k): lookupSegments.append(k)
            case .caller: lookupSegments.append(me)
            case .wildcard(let name): lookupSegments.append(keys[name] ?? "k1")
            }
        }
        let lookupPath = "/" + lookupSegments.joined(separator: "/")
        let ownerDepth = w.owner.path.count
        let recordPath = "/" + lookupSegments.prefix(ownerDepth).joined(separator: "/")
        let rest = Array(lookupSegments.dropFirst(ownerDepth))
        let record = WitnessPlanner.sample(w.owner, uid: me).setting(use.lookup.needed, at: rest)
        let op: LintWitness.Step.Operation = use.kind == .read ? .read : .set
        let value: WitnessValue? = use.kind == .read ? nil : WitnessPlanner.sample(use.node, uid: me)
        let before = LintWitness.Step(op, protected, value: value, expectAllowed: false, note: "denied before")
        let after = LintWitness.Step(op, protected, value: value, note: "the \(use.kind.key) at \(use.node.pathDescription) now grants it")
        let grantNote = "give yourself \(use.lookup.description) through the .write at \(w.path.pathDescription)"
        return [
            LintWitness(identity: .stranger(uid: me), steps: [before, .init(.set, lookupPath, value: use.lookup.needed, note: grantNote), after]),
            LintWitness(identity: .stranger(uid: me), steps: [before, .init(.set, recordPath, value: record, note: grantNote), after]),
        ]
    }
}
