import RulesCompiler
import RulesSyntax

/// Walks the checked rule tree top-down, carrying what the cascade has already granted, and
/// records what several lints decide on: every rule's abstract evaluation, the grants that make
/// rules below them dead, the public grants, the writes nothing validates, and the `.validate`
/// rules under a `.write` that lets others delete. Computed once per file (``LintContext``); each
/// lint type turns its part into findings.
struct CascadeAnalysis {
    /// A `.read` or `.write` below an ancestor that always grants (`shadowed-rule`): one per
    /// grant and kind, at the first such rule, with the other locations it shadows.
    struct Shadowed {
        var kind: RuleKind
        var grantPath: String
        var node: RuleNode
        var range: SourceRange
        var anchor: String
        var others: [String] = []
    }

    /// A `.read` or `.write` that is true when auth is null, over a large subtree (`public-read`,
    /// `public-write`).
    struct PublicGrant {
        var kind: RuleKind
        var node: RuleNode
        var range: SourceRange
        var anchor: String
        /// Whether the rule is a constant (`true`) rather than an expression.
        var constant: Bool
        /// For a `.write`: the location with no `.validate` at it or below it, when nothing
        /// checks what anyone stores (one finding for one rule).
        var unvalidatedAt: String?
        /// The writable locations below it with no `.validate` either, which it stands for.
        var unvalidatedBelow = 0
    }

    /// A `.write` with no `.validate` on it or below it (`unvalidated-write`).
    struct UnvalidatedWrite {
        var node: RuleNode
        var range: SourceRange
        var anchor: String
        /// The writable locations below it with no `.validate` either, which it stands for.
        var below = 0
    }

    /// An ancestor `.read` or `.write` that grants on a condition.
    struct ConditionalGrant {
        var path: String
        var checked: CheckedExpression
        var node: RuleNode
    }

    /// The rules one conditional grant voids (`weaker-ancestor-grant`, reported once per grant).
    struct Voided {
        var grant: ConditionalGrant
        var kind: RuleKind
        var children: [(range: SourceRange, anchor: String, node: RuleNode)]
    }

    /// A `.write` on the path that can let someone delete without an authorization check: it
    /// tests at most that auth is not null, and does not require the new or the old value.
    struct WeakWrite {
        var path: String
        var text: String
    }

    /// A `.validate` expression under a ``WeakWrite`` (`authorization-in-validate` looks for the
    /// check of `auth` in it).
    struct ValidateUnderWeakWrite {
        var checked: CheckedExpression
        var node: RuleNode
        var weak: WeakWrite
        var anchor: String
    }

    /// What abstract evaluation found about one rule expression.
    struct Evaluation {
        var rule: Rule
        var node: RuleNode
        var checked: CheckedExpression
        var anchor: String
        var value: AbstractValue
        /// The evaluator's findings to report (not silent), innermost first.
        var findings: [AbstractEvaluator.Finding]
        /// Whether the evaluator found anything at all (silent findings included).
        var explained: Bool
        /// For a rule on a `$wildcard` that only literal siblings' keys could satisfy: the
        /// wildcard's name and those keys.
        var unreachable: (name: String, keys: [String])?
    }

    private(set) var shadowed: [Shadowed] = []
    private(set) var publicGrants: [PublicGrant] = []
    private(set) var unvalidatedWrites: [UnvalidatedWrite] = []
    private(set) var voided: [Voided] = []
    private(set) var validatesUnderWeakWrites: [ValidateUnderWeakWrite] = []
    private(set) var evaluations: [Evaluation] = []

    /// Memo: whether a node or anything below it has a `.validate`.
    private var validated: [ObjectIdentifier: Bool] = [:]
    /// Memo: whether a node or anything below it has a `$wildcard` child.
    private var wildcardBelow: [ObjectIdentifier: Bool] = [:]
    /// The ``shadowed`` entry (by index) of each unconditional grant (`.read /a`).
    private var shadowedBy: [String: Int] = [:]

    /// An ancestor rule that is always true.
    private struct Grant {
        var path: String
    }

    /// The finding above that stands for the writes below it with no `.validate`.
    private enum Unvalidated {
        case publicGrant(Int)
        case write(Int)
    }

    /// What the cascade carries down to a location.
    private struct Context {
        var read: Grant?
        var write: Grant?
        var conditional: [RuleKind: [ConditionalGrant]] = [:]
        var weakWrite: WeakWrite?
        var unvalidatedAbove: Unvalidated?
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

    init(_ root: RuleNode) {
        walk(root, Context())
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
                if let weak = inner.weakWrite, case .expression(let checked) = rule.body {
                    validatesUnderWeakWrites.append(ValidateUnderWeakWrite(checked: checked, node: node, weak: weak, anchor: anchor))
                }
                continue
            }
            let grant = kind == .read ? context.read : context.write
            if let grant {
                // One unconditional grant shadows every rule of its kind below it: one finding, at
                // the first, listing the others.
                let key = "\(kind.key) \(grant.path)"
                if let first = shadowedBy[key] {
                    shadowed[first].others.append(node.pathDescription)
                    continue
                }
                shadowedBy[key] = shadowed.count
                shadowed.append(Shadowed(kind: kind, grantPath: grant.path, node: node, range: range, anchor: anchor))
                continue
            }
            if kind == .write, inner.weakWrite == nil, let weak = weakWrite(rule, verdict, node) { inner.weakWrite = weak }
            if case .expression(let checked) = rule.body, !verdict.alwaysTrue, !verdict.neverTrue {
                checkWeakerAncestor(checked, kind, verdict, context.conditional[kind] ?? [], range, anchor, node)
                inner.conditional[kind, default: []].append(ConditionalGrant(path: node.pathDescription, checked: checked, node: node))
            }
            var publicGrant: Int?
            if verdict.trueWhenSignedOut && large {
                let constant: Bool = if case .constant = rule.body { true } else { false }
                publicGrants.append(PublicGrant(kind: kind, node: node, range: range, anchor: anchor, constant: constant))
                publicGrant = publicGrants.count - 1
            }
            if kind == .write, !verdict.neverTrue, !hasValidate(node), !onlyDeletes(rule), !checksNewValue(rule), !onlyAdministrators(rule) {
                switch inner.unvalidatedAbove {
                case .publicGrant(let i)?:
                    publicGrants[i].unvalidatedBelow += 1
                case .write(let i)?:
                    unvalidatedWrites[i].below += 1
                case nil:
                    if let p = publicGrant {
                        // One finding for one rule: the public grant, and what it lets anyone store.
                        publicGrants[p].unvalidatedAt = node.pathDescription
                        inner.unvalidatedAbove = .publicGrant(p)
                    } else {
                        unvalidatedWrites.append(UnvalidatedWrite(node: node, range: range, anchor: anchor))
                        inner.unvalidatedAbove = .write(unvalidatedWrites.count - 1)
                    }
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

    // MARK: - Cascade

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
            return WeakWrite(path: node.pathDescription, text: checked.text(of: checked.root))
        }
    }

    /// A conditional `.read`/`.write` that is true only when an ancestor's conditional grant of
    /// the same kind is true too, so it never decides anything: recorded in ``voided``.
    private mutating func checkWeakerAncestor(
        _ checked: CheckedExpression, _ kind: RuleKind, _ verdict: Verdict, _ ancestors: [ConditionalGrant], _ range: SourceRange, _ anchor: String,
        _ node: RuleNode
    ) {
        let mine = Self.conjuncts(checked.root)
        // A conjunct that looks the caller up (`root.child('members').child(auth.uid).exists()`)
        // cannot hold signed out: `auth.uid` is then null, and `child(null)` is an error.
        let signedInOnly = verdict.neverTrueWhenSignedOut
            || mine.contains { c in RootLookup.all(in: c, checked).contains { $0.mentionsCaller && $0.use === c } }
        // Whether every conjunct of an ancestor's (alternative) condition holds when this rule does.
        func implies(_ theirs: [Expression], _ a: ConditionalGrant) -> Bool {
            theirs.allSatisfy { t in
                if Self.isSignedInTest(t, a.checked) { return signedInOnly }
                guard !usesRelativeSnapshot(t, a.checked) else { return false }
                let wanted = Self.normalized(a.checked.text(of: t))
                return mine.contains { Self.normalized(checked.text(of: $0)) == wanted }
            }
        }
        for a in ancestors {
            let alternatives: [Expression] = if case .logical(.or, let list) = a.checked.root.kind { list } else { [a.checked.root] }
            let hit: Bool
            if alternatives.count == 1 {
                let theirs = Self.conjuncts(a.checked.root)
                // Only a rule that looks stricter than the ancestor's is reported: one with a
                // conjunct that is neither a signed-in test (nor an `||` offering one) nor the
                // ancestor's own. A mere repeat of the grant is redundant, not misleading.
                let theirTexts = Set(theirs.map { Self.normalized(a.checked.text(of: $0)) })
                let stricter = mine.contains { c in
                    if Self.isSignedInTest(c, checked) { return false }
                    if case .logical(.or, let options) = c.kind, options.contains(where: { Self.isSignedInTest($0, checked) }) { return false }
                    return !theirTexts.contains(Self.normalized(checked.text(of: c)))
                }
                hit = stricter && implies(theirs, a)
            } else {
                // `A || B` above: this rule is voided when it implies one alternative, and it says
                // something other than the whole `A || B`.
                hit = Self.normalized(checked.text(of: checked.root)) != Self.normalized(a.checked.text(of: a.checked.root))
                    && alternatives.contains { implies(Self.conjuncts($0), a) }
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

    // MARK: - Expression facts

    /// The operands of a top-level `&&` (the expression itself otherwise).
    static func conjuncts(_ e: Expression) -> [Expression] {
        if case .logical(.and, let list) = e.kind { return list }
        return [e]
    }

    /// `auth != null`, `null != auth`, `auth !== null`, `auth.uid != null`.
    static func isSignedInTest(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        guard case .binary(let op, let l, let r, _) = e.kind, op == .notEqual || op == .strictNotEqual else { return false }
        func isAuth(_ x: Expression) -> Bool {
            if checked.resolution(of: x) == .auth { return true }
            if case .member(let o, "uid", _) = x.kind, checked.resolution(of: o) == .auth { return true }
            return false
        }
        func isNull(_ x: Expression) -> Bool { if case .null = x.kind { true } else { false } }
        return (isAuth(l) && isNull(r)) || (isNull(l) && isAuth(r))
    }

    /// Expression text without spaces, with one kind of quote.
    static func normalized(_ s: String) -> String {
        String(s.filter { !$0.isWhitespace }.map { $0 == "\"" ? "'" : $0 })
    }

    /// Whether the expression reads `data` or `newData`, whose meaning depends on the location.
    private func usesRelativeSnapshot(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        if case .identifier = e.kind, let r = checked.resolution(of: e), r == .data || r == .newData { return true }
        return e.subexpressions.contains { usesRelativeSnapshot($0, checked) }
    }

    /// Whether the expression reads a property of `auth` other than in a signed-in test
    /// (`auth.uid != null` identifies nobody).
    private func usesAuthBeyondSignedIn(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        if Self.isSignedInTest(e, checked) { return false }
        switch e.kind {
        case .member(let o, _, _), .index(let o, _):
            if checked.resolution(of: o) == .auth { return true }
        default: break
        }
        return e.subexpressions.contains { usesAuthBeyondSignedIn($0, checked) }
    }

    /// `base.exists()` on the rule's own location.
    private func isExists(_ e: Expression, of base: Resolution, _ checked: CheckedExpression) -> Bool {
        guard case .call(let callee, _) = e.kind, case .call(.exists)? = checked.resolution(of: e),
            case .member(let recv, _, _) = callee.kind
        else { return false }
        return checked.resolution(of: recv) == base
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
            var inner = full.findings
            var unreachable: (name: String, keys: [String])?
            // A rule on a $wildcard that only literal siblings' keys could satisfy.
            if let name = node.path.last, name.hasPrefix("$"), value.isNeverTrue {
                var open = excluded
                open[name] = nil
                var probe = AbstractEvaluator(checked, kind: rule.kind, depth: depth, excludedKeys: open, records: false)
                if !probe.evaluateRoot().isNeverTrue {
                    unreachable = (name, (excluded[name] ?? []).sorted())
                    inner.removeAll { $0.code == .impossibleCondition }
                }
            }
            evaluations.append(Evaluation(
                rule: rule, node: node, checked: checked, anchor: "\(node.pathDescription) \(rule.kind.key)", value: value,
                findings: inner.filter { !$0.silent }, explained: !full.findings.isEmpty, unreachable: unreachable))
            return Verdict(
                alwaysTrue: value.isAlwaysTrue, neverTrue: value.isNeverTrue, trueWhenSignedOut: signedOutValue.isAlwaysTrue,
                neverTrueWhenSignedOut: signedOutValue.isNeverTrue)
        }
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
        let conditions = Self.conjuncts(checked.root).filter { !Self.isSignedInTest($0, checked) }
        guard conditions.count == 1 else { return false }
        let t = Substring(Self.normalized(checked.text(of: conditions[0])))
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
}
