import RulesCompiler
import RulesSyntax

/// Builds the pieces of witness candidates from the rule tree, without running anything:
/// concrete paths for rule paths, and sample values that a location's `.validate` and `.write`
/// are likely to accept (the engine decides; a wrong guess only costs a candidate).
package enum WitnessPlanner {
    /// The uid of the victim, and the key every `$wildcard` takes unless told otherwise.
    package static let victim = "alice"
    /// The uid of the attacker.
    package static let attacker = "mallory"

    /// A rule path made concrete: each `$wildcard` takes `keys[name]`, else `fallback`.
    package static func concrete(_ path: [String], keys: [String: String] = [:], fallback: String = victim) -> String {
        "/" + path.map { $0.hasPrefix("$") ? keys[$0] ?? fallback : $0 }.joined(separator: "/")
    }

    /// A value no `.validate` would accept if there were one: the shape of nothing the app stores.
    package static let junk: WitnessValue = .object(["unexpected": .object(["anything": .number(12345)])])

    /// The identities to try, in order: signed out, a stranger, the owner of the keys.
    static let everyone: [LintWitness.Identity] = [.anonymous, .stranger(uid: attacker), .owner(uid: victim)]

    /// One single-step candidate per identity: `operation` at `node`'s path (each `$wildcard`
    /// the owner's uid for the owner, `k1` otherwise), with `value(uid)` for writes, from
    /// `existing` data (the victim's record at the path) or an empty database.
    static func single(
        _ node: RuleNode, _ operation: LintWitness.Step.Operation, identities: [LintWitness.Identity] = everyone,
        existing: Bool = false, note: String, value: (String?) -> WitnessValue? = { _ in nil }
    ) -> [LintWitness] {
        identities.map { who in
            let key: String = if case .owner(let uid) = who { uid } else { "k1" }
            let path = concrete(node.path, fallback: key)
            let data = existing ? WitnessValue.nested(sample(node, uid: victim), at: segments(path)) : nil
            return LintWitness(identity: who, data: data, steps: [.init(operation, path, value: value(who.uid), note: note)])
        }
    }

    /// Single-step candidates for a stranger and the owner where the starting data makes every
    /// root lookup of `rule` hold for the caller (with `root.child('courses/' + $c + '/owner')
    /// .val() == auth.uid`, the caller owns course `k1`), for rules that grant on data.
    static func withLookups(
        _ node: RuleNode, _ rule: CheckedExpression, _ operation: LintWitness.Step.Operation, note: String,
        value: (String?) -> WitnessValue?
    ) -> [LintWitness] {
        let lookups = RootLookup.all(in: rule.root, rule)
        guard !lookups.isEmpty else { return [] }
        let identities: [LintWitness.Identity] = [.stranger(uid: attacker), .owner(uid: victim)]
        return identities.compactMap { who in
            let key: String = if case .owner(let uid) = who { uid } else { "k1" }
            var data: WitnessValue = .object([:])
            for l in lookups.sorted(by: { $0.segments.count < $1.segments.count }) {
                guard let (path, v) = l.data(uid: who.uid, keys: [:], fallback: key), !path.isEmpty else { continue }
                data = data.setting(v, at: path)
            }
            if case .object(let m) = data, m.isEmpty { return nil }
            let path = concrete(node.path, fallback: key)
            return LintWitness(identity: who, data: data, steps: [.init(operation, path, value: value(who.uid), note: note)])
        }
    }

    /// The segments of a concrete path (`/a/b` → `["a", "b"]`).
    package static func segments(_ concretePath: String) -> [String] {
        concretePath.split(separator: "/").map(String.init)
    }

    /// What the rules say about one place in a new value.
    private enum Hint {
        case string, number, bool, uid, present, object
        case constant(WitnessValue)

        func value(uid: String?) -> WitnessValue {
            switch self {
            case .string, .present: .string("x")
            case .number: .number(1)
            case .bool: .bool(true)
            case .uid: .string(uid ?? victim)
            case .object: .object(["k": .string("x")])
            case .constant(let c): c
            }
        }

        var isWeak: Bool { if case .present = self { true } else { false } }
    }

    /// A value for `node` that its rules probably accept, written by `uid` (fields compared with
    /// `auth.uid` take it).
    package static func sample(_ node: RuleNode, uid: String?, depth: Int = 0) -> WitnessValue {
        var hints: [[String]: Hint] = [:]
        for rule in [node.validate, node.write] {
            if case .expression(let checked)? = rule?.body { collect(checked.root, checked, into: &hints) }
        }
        var object: [String: WitnessValue] = [:]
        if depth < 4 {
            for (key, child) in node.literalChildren where hasRules(child) {
                object[key] = sample(child, uid: uid, depth: depth + 1)
            }
        }
        var value: WitnessValue = .object(object)
        for (path, hint) in hints.sorted(by: { $0.key.count < $1.key.count }) where !path.isEmpty {
            if hint.isWeak, lookup(value, path) != nil { continue }
            value = value.setting(hint.value(uid: uid), at: path)
        }
        if case .object(let m) = value, m.isEmpty { return hints[[]].map { $0.value(uid: uid) } ?? .string("x") }
        return value
    }

    /// The value at a relative path.
    package static func lookup(_ v: WitnessValue, _ path: [String]) -> WitnessValue? {
        guard let first = path.first else { return v }
        guard case .object(let m) = v, let next = m[first] else { return nil }
        return lookup(next, Array(path.dropFirst()))
    }

    private static func hasRules(_ node: RuleNode) -> Bool {
        if node.validate != nil || node.write != nil { return true }
        return node.literalChildren.contains { hasRules($0.node) }
    }

    /// The relative path below `newData` of a snapshot expression, if it is one.
    package static func newDataPath(_ e: Expression, _ checked: CheckedExpression) -> [String]? {
        guard let key = ConditionFacts.snapshotKey(e, checked), key == "newData" || key.hasPrefix("newData/"), !key.contains("..") else { return nil }
        let parts = key.split(separator: "/").dropFirst().map(String.init)
        return parts.contains { $0.hasPrefix("$") } ? nil : parts
    }

    package static func isAuthUID(_ e: Expression, _ checked: CheckedExpression) -> Bool {
        if case .member(let o, "uid", _) = e.kind, checked.resolution(of: o) == .auth { return true }
        return false
    }

    private static func collect(_ e: Expression, _ checked: CheckedExpression, into hints: inout [[String]: Hint]) {
        switch e.kind {
        case .binary(let op, let l, let r, _):
            for (x, y) in [(l, r), (r, l)] {
                guard case .call(let callee, _) = x.kind, case .call(.val)? = checked.resolution(of: x),
                    let recv = callee.receiver, let path = newDataPath(recv, checked)
                else { continue }
                if op.isEquality && (op == .equal || op == .strictEqual) {
                    if isAuthUID(y, checked) { hints[path] = .uid }
                    else if let c = ConstantFolder.fold(y) {
                        switch c {
                        case .string(let s): hints[path] = .constant(.string(s))
                        case .number(let n): hints[path] = .constant(.number(n))
                        case .bool(let b): hints[path] = .constant(.bool(b))
                        case .null: break
                        }
                    } else if checked.resolution(of: y) == .now { hints[path] = .number }
                } else if op.isRelational || op == .subtract {
                    if hints[path] == nil || hints[path]!.isWeak { hints[path] = .number }
                }
            }
        case .call(let callee, let arguments):
            if let recv = callee.receiver, let path = newDataPath(recv, checked), case .call(let m)? = checked.resolution(of: e) {
                switch m {
                case .isString: if hints[path] == nil || hints[path]!.isWeak { hints[path] = .string }
                case .isNumber: if hints[path] == nil || hints[path]!.isWeak { hints[path] = .number }
                case .isBoolean: if hints[path] == nil || hints[path]!.isWeak { hints[path] = .bool }
                case .hasChildren, .hasChild:
                    var keys: [String] = []
                    for a in arguments {
                        if case .string(let s) = a.kind { keys.append(s) }
                        if case .array(let items) = a.kind { for i in items { if case .string(let s) = i.kind { keys.append(s) } } }
                    }
                    for k in keys {
                        let p = path + k.split(separator: "/").map(String.init)
                        if hints[p] == nil { hints[p] = .present }
                    }
                    if keys.isEmpty, hints[path] == nil || hints[path]!.isWeak { hints[path] = .object }
                case .exists:
                    if !path.isEmpty, hints[path] == nil { hints[path] = .present }
                default: break
                }
            }
        default: break
        }
        for c in e.subexpressions { collect(c, checked, into: &hints) }
    }
}
