import RulesSyntax

/// Walks the checked rule tree top-down, carrying what the cascade has already granted, and
/// collects the findings of every tree- and expression-level lint.
struct LintWalker {
    private(set) var findings: [LintFinding] = []
    /// Memo: whether a node or anything below it has a `.validate`.
    private var validated: [ObjectIdentifier: Bool] = [:]
    /// Memo: whether a node or anything below it has a `$wildcard` child.
    private var wildcardBelow: [ObjectIdentifier: Bool] = [:]

    /// An ancestor rule that is always true.
    private struct Grant {
        var path: String
    }

    /// An ancestor `.read` or `.write` that grants on a condition.
    private struct ConditionalGrant {
        var path: String
        var checked: CheckedExpression
        var node: RuleNode
    }

    /// The rules one conditional grant voids (`weaker-ancestor-grant`, reported once per grant).
    private struct Voided {
        var grant: ConditionalGrant
        var kind: RuleKind
        var children: [(range: SourceRange, anchor: String, node: RuleNode)]
    }

    private var voided: [Voided] = []
    /// The `shadowed-rule` finding (by index) of each unconditional grant (`.read /a`).
    private var shadowedBy: [String: Int] = [:]
    /// For each `shadowed-rule` finding (by index), the other locations it shadows.
    private var shadowedOthers: [Int: [String]] = [:]

    /// A `.write` on the path that can let someone delete without an authorization check: it
    /// tests at most that auth is not null, and does not require the new or the old value.
    private struct WeakWrite {
        var path: String
        var text: String
    }

    /// What the cascade carries down to a location.
    private struct Context {
        var read: Grant?
        var write: Grant?
        var conditional: [RuleKind: [ConditionalGrant]] = [:]
        var weakWrite: WeakWrite?
        /// The `unvalidated-write` finding reported above, which stands for this location too.
        var unvalidatedAbove: Int?
        var excluded: [String: Set<String>] = [:]
        var wildcardAbove = false
    }

    /// What evaluation found about one rule.
    private struct Verdict {
        var alwaysTrue: Bool
        var neverTrue: Bool
        var trueWhenSignedOut: Bool
        var neverTrueWhenSignedOut: Bool
    }

    /// For each `unvalidated-write` finding (by index), the writable locations below it that it
    /// stands for.
    private var unvalidatedBelow: [Int: Int] = [:]

    mutating func run(_ root: RuleNode) {
        walk(root, Context())
        for (index, others) in shadowedOthers {
            let f = findings[index]
            findings[index] = LintFinding(
                code: f.code, message: f.diagnostic.message + " The same grant shadows the rules at " + others.joined(separator: ", ") + ".",
                range: f.diagnostic.range, anchor: f.anchor, witnessCandidates: f.witnessCandidates)
        }
        for v in voided {
            let a = v.grant
            let first = v.children[0]
            let verb = v.kind == .read ? "read" : "write"
            var message = "This \(v.kind.key) never decides anything: whenever it is true, the \(v.kind.key) at \(a.path) (\(text(a.checked.root, a.checked))) is true too, and that grant already covers everything below it. Everyone it admits can \(verb) here, so the stricter check protects nothing: narrow the rule at \(a.path), or move it below."
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
            findings.append(LintFinding(code: .weakerAncestorGrant, message: message, range: first.range, anchor: first.anchor, witnessCandidates: candidates))
        }
        for (index, count) in unvalidatedBelow where count > 0 {
            let f = findings[index]
            let rest = count == 1 ? "the .write below it, which has" : "the \(count) .write rules below it, which have"
            findings[index] = LintFinding(
                code: f.code, message: f.diagnostic.message + " The same holds for \(rest) no .validate either.",
                range: f.diagnostic.range, anchor: f.anchor, witnessCandidates: f.witnessCandidates)
        }
    }

    private mutating func walk(_ node: RuleNode, _ context: Context) {
        var inner = context
        let excluded = context.excluded
        let onWildcard = node.path.last?.hasPrefix("$") == true
        let large = node.path.count <= 1 || context.wildcardAbove || onWildcard || hasWildcardBelow(node)
        for kind in RuleKind.allCases {
            guard let rule = node.rule(kind) else { continue }
            let verdict = analyze(rule, node, excluded: excluded)
            let anchor = "\(node.pathDescription) \(kind.key)"
            let range = rule.keyRange.union(rule.valueRange)
            if kind == .validate {
                checkAuthorizationInValidate(rule, node, inner.weakWrite, anchor)
                continue
            }
            let grant = kind == .read ? context.read : context.write
            let verb = kind == .read ? "reads" : "writes"
            if let grant {
                // One unconditional grant shadows every rule of its kind below it: one finding, at
                // the first, listing the others.
                let key = "\(kind.key) \(grant.path)"
                if let first = shadowedBy[key] {
                    shadowedOthers[first, default: []].append(node.pathDescription)
                    continue
                }
                shadowedBy[key] = findings.count
                let op: LintWitness.Step.Operation = kind == .read ? .read : .set
                add(.shadowedRule, range, anchor,
                    "This \(kind.key) can never change a verdict: the \(kind.key) at \(grant.path) already grants \(verb) unconditionally, and a grant cascades to everything below it.",
                    witnesses: WitnessPlanner.single(node, op, identities: [.anonymous], note: "granted by the \(kind.key) at \(grant.path)") {
                        op == .read ? nil : WitnessPlanner.sample(node, uid: $0)
                    })
                continue
            }
            if kind == .write, inner.weakWrite == nil, let weak = weakWrite(rule, verdict, node) { inner.weakWrite = weak }
            if case .expression(let checked) = rule.body, !verdict.alwaysTrue, !verdict.neverTrue {
                checkWeakerAncestor(checked, kind, verdict, context.conditional[kind] ?? [], range, anchor, node)
                inner.conditional[kind, default: []].append(ConditionalGrant(path: node.pathDescription, checked: checked, node: node))
            }
            var publicFinding: Int?
            if verdict.trueWhenSignedOut && large {
                let what = node.path.isEmpty ? "the whole database" : "\(node.pathDescription) and everything below it"
                let why: String
                if case .constant = rule.body { why = "this \(kind.key) is true" } else { why = "this \(kind.key) is true when auth is null" }
                let op: LintWitness.Step.Operation = kind == .read ? .read : .set
                add(kind == .read ? .publicRead : .publicWrite, range, anchor,
                    "Anyone, signed in or not, can \(kind == .read ? "read" : "write") \(what): \(why), and no rule below can take the grant back.",
                    witnesses: WitnessPlanner.single(node, op, identities: [.anonymous], existing: op == .read, note: "granted by this \(kind.key)") {
                        op == .read ? nil : WitnessPlanner.sample(node, uid: $0)
                    })
                publicFinding = findings.count - 1
            }
            if kind == .write, !verdict.neverTrue, !hasValidate(node), !onlyDeletes(rule), !checksNewValue(rule), !onlyAdministrators(rule) {
                if let above = inner.unvalidatedAbove {
                    unvalidatedBelow[above, default: 0] += 1
                } else if let p = publicFinding, kind == .write {
                    // One finding for one rule: the public grant, and what it lets anyone store.
                    let f = findings[p]
                    findings[p] = LintFinding(
                        code: f.code,
                        message: f.diagnostic.message + " Nothing checks what is stored: there is no .validate at \(node.pathDescription) or below it.",
                        range: f.diagnostic.range, anchor: f.anchor)
                    inner.unvalidatedAbove = p
                } else {
                    let note = "store a value of any shape"
                    add(.unvalidatedWrite, range, anchor,
                        "Whoever this .write admits can store any value at \(node.pathDescription): there is no .validate at \(node.pathDescription) or below it.",
                        // No candidate starts with the caller already holding a privilege the data
                        // grants: a location only privileged users write is not "anyone's", and a
                        // privilege anyone can give themselves is reported as its escalation.
                        witnesses: WitnessPlanner.single(node, .set, note: note) { _ in WitnessPlanner.junk }
                            + WitnessPlanner.single(node, .set, existing: true, note: note) { _ in WitnessPlanner.junk })
                    inner.unvalidatedAbove = findings.count - 1
                }
            }
            if verdict.alwaysTrue {
                let g = Grant(path: node.pathDescription)
                if kind == .read { inner.read = g } else { inner.write = g }
            }
        }
        inner.wildcardAbove = context.wildcardAbove || onWildcard
        for (_, child) in node.literalChildren {
            walk(child, inner)
        }
        if let (name, child) = node.wildcard {
            var w = inner
            w.excluded[name] = Set(node.literalChildren.map(\.key))
            walk(child, w)
        }
    }

    // MARK: - Cascade lints

    /// `authorization-in-validate`: a `.validate` that compares with `auth`, under a `.write` that
    /// lets someone delete without that check.
    private mutating func checkAuthorizationInValidate(_ rule: Rule, _ node: RuleNode, _ weak: WeakWrite?, _ anchor: String) {
        guard let weak, case .expression(let checked) = rule.body, let use = authorizationComparison(checked.root, checked) else { return }
        add(.authorizationInValidate, checked.fileRange(of: use), anchor,
            "This .validate checks auth, but .validate never runs when the new value is null: anyone the .write at \(weak.path) admits (\(weak.text)) can delete \(node.pathDescription), whatever this says. Put the check in .write, where it also covers deletes (for a delete, compare with data).",
            witnesses: WitnessPlanner.single(node, .delete, identities: [.stranger(uid: WitnessPlanner.attacker), .anonymous], existing: true,
                note: "delete \(WitnessPlanner.victim)'s record; .validate does not run"))
    }

    /// The `.write` as a ``WeakWrite``, when it can grant a delete to someone it does not identify.
    private func weakWrite(_ rule: Rule, _ verdict: Verdict, _ node: RuleNode) -> WeakWrite? {
        switch rule.body {
        case .invalid: return nil
        case .constant(let b): return b ? WeakWrite(path: node.pathDescription, text: "true") : nil
        case .expression(let checked):
            guard !verdict.neverTrue, !usesAuthBeyondSignedIn(checked.root, checked), !checksNewValue(rule) else { return nil }
            let operands: [Expression] = if case .logical(.and, let list) = checked.root.kind { list } else { [checked.root] }
            // `newData.exists()` stops deletes; `!data.exists()` only creates.
            for o in operands {
                if isExists(o, of: .newData, checked) { return nil }
                if case .unary(.not, let x) = o.kind, isExists(x, of: .data, checked) { return nil }
            }
            return WeakWrite(path: node.pathDescription, text: text(checked.root, checked))
        }
    }

    /// `weaker-ancestor-grant`: a conditional `.read`/`.write` that is true only when an ancestor's
    /// conditional grant of the same kind is true too, so it never decides anything.
    private mutating func checkWeakerAncestor(
        _ checked: CheckedExpression, _ kind: RuleKind, _ verdict: Verdict, _ ancestors: [ConditionalGrant], _ range: SourceRange, _ anchor: String,
        _ node: RuleNode
    ) {
        let mine = conjuncts(checked.root)
        // A conjunct that looks the caller up (`root.child('members').child(auth.uid).exists()`)
        // cannot hold signed out: `auth.uid` is then null, and `child(null)` is an error.
        let signedInOnly = verdict.neverTrueWhenSignedOut
            || mine.contains { c in RootLookup.all(in: c, checked).contains { $0.mentionsCaller && $0.use === c } }
        // Whether every conjunct of an ancestor's (alternative) condition holds when this rule does.
        func implies(_ theirs: [Expression], _ a: ConditionalGrant) -> Bool {
            theirs.allSatisfy { t in
                if isSignedInTest(t, a.checked) { return signedInOnly }
                guard !usesRelativeSnapshot(t, a.checked) else { return false }
                let wanted = normalized(text(t, a.checked))
                return mine.contains { normalized(text($0, checked)) == wanted }
            }
        }
        for a in ancestors {
            let alternatives: [Expression] = if case .logical(.or, let list) = a.checked.root.kind { list } else { [a.checked.root] }
            let hit: Bool
            if alternatives.count == 1 {
                let theirs = conjuncts(a.checked.root)
                // Only a rule that looks stricter than the ancestor's is reported: one with a
                // conjunct that is neither a signed-in test (nor an `||` offering one) nor the
                // ancestor's own. A mere repeat of the grant is redundant, not misleading.
                let theirTexts = Set(theirs.map { normalized(text($0, a.checked)) })
                let stricter = mine.contains { c in
                    if isSignedInTest(c, checked) { return false }
                    if case .logical(.or, let options) = c.kind, options.contains(where: { isSignedInTest($0, checked) }) { return false }
                    return !theirTexts.contains(normalized(text(c, checked)))
                }
                hit = stricter && implies(theirs, a)
            } else {
                // `A || B` above: this rule is voided when it implies one alternative, and it says
                // something other than the whole `A || B`.
                hit = normalized(text(checked.root, checked)) != normalized(text(a.checked.root, a.checked))
                    && alternatives.contains { implies(conjuncts($0), a) }
            }
            guard hit else { continue }
            if let i = voided.firstIndex(where: { $0.grant.node === a.node && $0.kind == kind }) {
                voided[i].children.append((range, anchor, node))
            } else {
                voided.append(Voided(grant: a, kind: kind, children: [(range, anchor, node)]))
            }
            return
        }
    }

    /// `unvalidated-write` candidates whose starting data satisfies the `.write`'s root lookups.
    private func conjuncts(_ e: Expression) -> [Expression] {
        if case .logical(.and, let list) = e.kind { return list }
        return [e]
    }

    /// `auth != null`, `null != auth`, `auth !== null`, `auth.uid != null`.
    private func isSignedInTest(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        guard case .binary(let op, let l, let r, _) = e.kind, op == .notEqual || op == .strictNotEqual else { return false }
        func isAuth(_ x: Expression) -> Bool {
            if checked.resolution(of: x) == .auth { return true }
            if case .member(let o, "uid", _) = x.kind, checked.resolution(of: o) == .auth { return true }
            return false
        }
        func isNull(_ x: Expression) -> Bool { if case .null = x.kind { true } else { false } }
        return (isAuth(l) && isNull(r)) || (isNull(l) && isAuth(r))
    }

    /// Whether the expression reads `data` or `newData`, whose meaning depends on the location.
    private func usesRelativeSnapshot(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        if case .identifier = e.kind, let r = checked.resolution(of: e), r == .data || r == .newData { return true }
        return e.subexpressions.contains { usesRelativeSnapshot($0, checked) }
    }

    /// Whether the expression reads a property of `auth` other than in a signed-in test
    /// (`auth.uid != null` identifies nobody).
    private func usesAuthBeyondSignedIn(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        if isSignedInTest(e, checked) { return false }
        switch e.kind {
        case .member(let o, _, _), .index(let o, _):
            if checked.resolution(of: o) == .auth { return true }
        default: break
        }
        return e.subexpressions.contains { usesAuthBeyondSignedIn($0, checked) }
    }

    /// Whether the expression reads a property of `auth` (`auth.uid`, `auth.token.admin`...).
    private func usesAuthProperty(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        switch e.kind {
        case .member(let o, _, _), .index(let o, _):
            if checked.resolution(of: o) == .auth { return true }
        default: break
        }
        return e.subexpressions.contains { usesAuthProperty($0, checked) }
    }

    /// The first comparison with a property of `auth` that is not a test against null.
    private func authorizationComparison(_ e: Expression, _ checked: CheckedExpression) -> Expression? {
        if case .binary(let op, let l, let r, _) = e.kind, op.isEquality || op.isRelational {
            func isNull(_ x: Expression) -> Bool { if case .null = x.kind { true } else { false } }
            if !isNull(l), !isNull(r), usesAuthProperty(l, checked) || usesAuthProperty(r, checked) { return e }
            // `root.child('admins/' + auth.uid).val() != null`: a lookup by the caller, not the
            // signed-in test `auth.uid != null`.
            if isNull(l) != isNull(r) {
                let other = isNull(l) ? r : l
                if usesAuthProperty(other, checked), !isSignedInTest(e, checked) { return e }
            }
        }
        // `hasChild(auth.uid)`, `child('admins/' + auth.uid)`: the caller looked up in the data.
        if case .call(_, let arguments) = e.kind, arguments.contains(where: { usesAuthProperty($0, checked) }) { return e }
        for c in e.subexpressions {
            if let found = authorizationComparison(c, checked) { return found }
        }
        return nil
    }

    /// `base.exists()` on the rule's own location.
    private func isExists(_ e: Expression, of base: Resolution, _ checked: CheckedExpression) -> Bool {
        guard case .call(let callee, _) = e.kind, case .call(.exists)? = checked.resolution(of: e),
            case .member(let recv, _, _) = callee.kind
        else { return false }
        return checked.resolution(of: recv) == base
    }

    private func text(_ e: Expression, _ checked: CheckedExpression) -> String { checked.text(of: e) }

    /// Expression text without spaces, with one kind of quote.
    private func normalized(_ s: String) -> String {
        String(s.filter { !$0.isWhitespace }.map { $0 == "\"" ? "'" : $0 })
    }

    // MARK: - Rules

    private mutating func analyze(_ rule: Rule, _ node: RuleNode, excluded: [String: Set<String>]) -> Verdict {
        switch rule.body {
        case .invalid:
            return Verdict(alwaysTrue: false, neverTrue: false, trueWhenSignedOut: false, neverTrueWhenSignedOut: false)
        case .constant(let b):
            return Verdict(alwaysTrue: b, neverTrue: !b, trueWhenSignedOut: b, neverTrueWhenSignedOut: !b)
        case .expression(let checked):
            let depth = node.path.count
            var full = AbstractEvaluator(checked, kind: rule.kind, depth: depth, excludedKeys: excluded)
            let value = full.evaluateRoot()
            var signedOut = AbstractEvaluator(checked, kind: rule.kind, depth: depth, unauthenticated: true, excludedKeys: excluded, records: false)
            let signedOutValue = signedOut.evaluateRoot()
            let anchor = "\(node.pathDescription) \(rule.kind.key)"
            var inner = full.findings
            // A rule on a $wildcard that only literal siblings' keys could satisfy.
            if let name = node.path.last, name.hasPrefix("$"), value.isNeverTrue {
                var open = excluded
                open[name] = nil
                var probe = AbstractEvaluator(checked, kind: rule.kind, depth: depth, excludedKeys: open, records: false)
                if !probe.evaluateRoot().isNeverTrue {
                    let keys = (excluded[name] ?? []).sorted().map { "'\($0)'" }.joined(separator: ", ")
                    add(.unreachableWildcard, rule.keyRange.union(rule.valueRange), anchor,
                        "This \(rule.kind.key) can only be true for keys that literal siblings take (\(keys)); those keys use the literal rules, so the \(name) branch never applies to them and this rule is never true.")
                    inner.removeAll { $0.code == .impossibleCondition }
                }
            }
            for f in inner where !f.silent {
                let witnesses = f.code == .deleteGuardInValidate
                    ? WitnessPlanner.single(node, .delete, existing: true, note: "delete it; .validate does not run") : []
                add(f.code, f.range, anchor, f.message, witnesses: witnesses)
            }
            if full.findings.isEmpty, !isLiteral(checked.root) {
                if value.isAlwaysTrue {
                    add(.constantRule, rule.valueRange, anchor, "This \(rule.kind.key) is always true, whatever the data, auth or time; write true if that is meant.")
                } else if value.shape == nil {
                    add(.constantRule, rule.valueRange, anchor, "This \(rule.kind.key) always fails with a runtime error, so it is never true.")
                } else if value.isNeverTrue {
                    add(.constantRule, rule.valueRange, anchor, "This \(rule.kind.key) is never true, whatever the data, auth or time; write false if that is meant.")
                }
            }
            if rule.kind != .read { RootInWriteLint.check(checked, kind: rule.kind, node: node) { add(.rootInWrite, $0, anchor, $1) } }
            if rule.kind == .read { QueryIndexLint.check(checked, node: node) { add(.queryWithoutIndex, $0, anchor, $1) } }
            return Verdict(
                alwaysTrue: value.isAlwaysTrue, neverTrue: value.isNeverTrue, trueWhenSignedOut: signedOutValue.isAlwaysTrue,
                neverTrueWhenSignedOut: signedOutValue.isNeverTrue)
        }
    }

    private func isLiteral(_ e: Expression) -> Bool {
        if case .boolean = e.kind { return true }
        return false
    }

    /// True for a `.write` whose top-level conditions require `!newData.exists()`: it only
    /// admits deletes, which need no validation.
    private func onlyDeletes(_ rule: Rule) -> Bool {
        guard case .expression(let checked) = rule.body else { return false }
        var operands = [checked.root]
        if case .logical(.and, let list) = checked.root.kind { operands = list }
        return operands.contains { o in
            guard case .unary(.not, let x) = o.kind, case .call(let callee, _) = x.kind, case .call(.exists)? = checked.resolution(of: x) else {
                return false
            }
            if case .member(let recv, _, _) = callee.kind, case .newData? = checked.resolution(of: recv) { return true }
            return false
        }
    }

    /// True for a `.write` that only members of a role table pass: besides signed-in tests, its
    /// one condition looks the caller up under a fixed key, `root.child('admins/' + auth.uid)`
    /// or `root.child('admins').child(auth.uid)` (then `.exists()`, `.val() == true` or
    /// `.val() != null`), or `root.child('admins').hasChild(auth.uid)`. Administrators are
    /// trusted with the shape of what they store, so `unvalidated-write` says nothing about such a
    /// location.
    private func onlyAdministrators(_ rule: Rule) -> Bool {
        guard case .expression(let checked) = rule.body else { return false }
        let conditions = conjuncts(checked.root).filter { !isSignedInTest($0, checked) }
        guard conditions.count == 1 else { return false }
        let t = Substring(normalized(text(conditions[0], checked)))
        if t.hasPrefix("auth.token.") {
            // A custom claim set by the project's own backend: `auth.token.admin === true`,
            // `auth.token.role == 'admin'`.
            var rest = t.dropFirst("auth.token.".count)
            let claim = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !claim.isEmpty else { return false }
            rest = rest.dropFirst(claim.count)
            if rest.isEmpty || ["==true", "===true"].contains(rest) { return true }
            for op in ["===", "=="] where rest.hasPrefix(op + "'") && rest.hasSuffix("'") && rest.count > op.count + 2 {
                return !rest.dropFirst(op.count + 1).dropLast().contains("'")
            }
            return false
        }
        guard t.hasPrefix("root.child('") else { return false }
        var rest = t.dropFirst("root.child('".count)
        if rest.first == "/" { rest = rest.dropFirst() }
        let table = rest.prefix { $0.isLetter || $0 == "_" || $0 == "-" }
        guard !table.isEmpty else { return false }
        rest = rest.dropFirst(table.count)
        if rest.first == "/" { rest = rest.dropFirst() }
        for hasChild in ["').hasChild(auth.uid)"] where rest == hasChild { return true }
        var lookedUp: Substring?
        for form in ["'+auth.uid)", "').child(auth.uid)"] where rest.hasPrefix(form) { lookedUp = rest.dropFirst(form.count) }
        guard let tail = lookedUp else { return false }
        return [".exists()", ".val()==true", ".val()===true", ".val()!=null", ".val()!==null"].contains(tail)
    }

    /// True for a `.write` that inspects the new value itself (`newData...val()`, `isString()`,
    /// `hasChildren()`...): it validates in the `.write`, which also covers deletes.
    private func checksNewValue(_ rule: Rule) -> Bool {
        guard case .expression(let checked) = rule.body else { return false }
        var found = false
        var stack = [checked.root]
        while let e = stack.popLast(), !found {
            if case .call(let callee, _) = e.kind, case .call(let m)? = checked.resolution(of: e),
                [.val, .isString, .isNumber, .isBoolean, .hasChildren, .hasChild].contains(m),
                case .member(let recv, _, _) = callee.kind, let key = ConditionFacts.snapshotKey(recv, checked),
                key.hasPrefix("newData"), !key.contains("..")
            {
                found = true
            }
            stack += e.subexpressions
        }
        return found
    }

    // MARK: - Tree facts

    private mutating func hasValidate(_ node: RuleNode) -> Bool {
        if let v = validated[ObjectIdentifier(node)] { return v }
        var v = node.validate != nil
        if !v { v = node.literalChildren.contains { hasValidate($0.node) } }
        if !v, let w = node.wildcard { v = hasValidate(w.node) }
        validated[ObjectIdentifier(node)] = v
        return v
    }

    private mutating func hasWildcardBelow(_ node: RuleNode) -> Bool {
        if let v = wildcardBelow[ObjectIdentifier(node)] { return v }
        let v = node.wildcard != nil || node.literalChildren.contains { hasWildcardBelow($0.node) }
        wildcardBelow[ObjectIdentifier(node)] = v
        return v
    }

    private mutating func add(_ code: LintCode, _ range: SourceRange, _ anchor: String, _ message: String, witnesses: [LintWitness] = []) {
        findings.append(LintFinding(code: code, message: message, range: range, anchor: anchor, witnessCandidates: witnesses))
    }
}
