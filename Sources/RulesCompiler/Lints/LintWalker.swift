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

    /// What evaluation found about one rule.
    private struct Verdict {
        var alwaysTrue: Bool
        var neverTrue: Bool
        var trueWhenSignedOut: Bool
    }

    mutating func run(_ root: RuleNode) {
        walk(root, read: nil, write: nil, excluded: [:], wildcardAbove: false)
    }

    private mutating func walk(_ node: RuleNode, read: Grant?, write: Grant?, excluded: [String: Set<String>], wildcardAbove: Bool) {
        var read = read, write = write
        let onWildcard = node.path.last?.hasPrefix("$") == true
        let large = node.path.count <= 1 || wildcardAbove || onWildcard || hasWildcardBelow(node)
        for kind in RuleKind.allCases {
            guard let rule = node.rule(kind) else { continue }
            let verdict = analyze(rule, node, excluded: excluded)
            let anchor = "\(node.pathDescription) \(kind.key)"
            let range = rule.keyRange.union(rule.valueRange)
            if kind == .validate { continue }
            let grant = kind == .read ? read : write
            let verb = kind == .read ? "reads" : "writes"
            if let grant {
                add(.shadowedRule, range, anchor,
                    "This \(kind.key) can never change a verdict: the \(kind.key) at \(grant.path) already grants \(verb) unconditionally, and a grant cascades to everything below it.")
                continue
            }
            if verdict.trueWhenSignedOut && large {
                let what = node.path.isEmpty ? "the whole database" : "\(node.pathDescription) and everything below it"
                let why: String
                if case .constant = rule.body { why = "this \(kind.key) is true" } else { why = "this \(kind.key) is true when auth is null" }
                add(kind == .read ? .publicRead : .publicWrite, range, anchor,
                    "Anyone, signed in or not, can \(kind == .read ? "read" : "write") \(what): \(why), and no rule below can take the grant back.")
            }
            if kind == .write, !verdict.neverTrue, !hasValidate(node), !onlyDeletes(rule), !checksNewValue(rule) {
                add(.unvalidatedWrite, range, anchor,
                    "Whoever this .write admits can store any value at \(node.pathDescription): there is no .validate at \(node.pathDescription) or below it.")
            }
            if verdict.alwaysTrue {
                let g = Grant(path: node.pathDescription)
                if kind == .read { read = g } else { write = g }
            }
        }
        for (_, child) in node.literalChildren {
            walk(child, read: read, write: write, excluded: excluded, wildcardAbove: wildcardAbove || onWildcard)
        }
        if let (name, child) = node.wildcard {
            var inner = excluded
            inner[name] = Set(node.literalChildren.map(\.key))
            walk(child, read: read, write: write, excluded: inner, wildcardAbove: wildcardAbove || onWildcard)
        }
    }

    // MARK: - Rules

    private mutating func analyze(_ rule: Rule, _ node: RuleNode, excluded: [String: Set<String>]) -> Verdict {
        switch rule.body {
        case .invalid:
            return Verdict(alwaysTrue: false, neverTrue: false, trueWhenSignedOut: false)
        case .constant(let b):
            return Verdict(alwaysTrue: b, neverTrue: !b, trueWhenSignedOut: b)
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
            for f in inner { add(f.code, f.range, anchor, f.message) }
            if full.findings.isEmpty, !isLiteral(checked.root) {
                if value.isAlwaysTrue {
                    add(.constantRule, rule.valueRange, anchor, "This \(rule.kind.key) is always true, whatever the data, auth or time; write true if that is meant.")
                } else if value.shape == nil {
                    add(.constantRule, rule.valueRange, anchor, "This \(rule.kind.key) always fails with a runtime error, so it is never true.")
                } else if value.isNeverTrue {
                    add(.constantRule, rule.valueRange, anchor, "This \(rule.kind.key) is never true, whatever the data, auth or time; write false if that is meant.")
                }
            }
            if rule.kind != .read { RootInWriteLint.check(checked, node: node) { add(.rootInWrite, $0, anchor, $1) } }
            if rule.kind == .read { QueryIndexLint.check(checked, node: node) { add(.queryWithoutIndex, $0, anchor, $1) } }
            return Verdict(alwaysTrue: value.isAlwaysTrue, neverTrue: value.isNeverTrue, trueWhenSignedOut: signedOutValue.isAlwaysTrue)
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

    private mutating func add(_ code: LintCode, _ range: SourceRange, _ anchor: String, _ message: String) {
        findings.append(LintFinding(code: code, message: message, range: range, anchor: anchor))
    }
}
