import RulesCompiler
import RulesSyntax

/// Finds conjunctions that contradict themselves: the same snapshot tested to be of two types,
/// to exist and not exist, or to equal two different constants; a `$wildcard` equal to two keys.
package enum ConditionFacts {
    private enum Kind: Hashable {
        case string, number, boolean, object
        var phrase: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .boolean: "a boolean"
            case .object: "an object with children"
            }
        }
    }

    private enum Fact {
        case type(Kind, Bool)
        case exists(Bool)
        case equals(ConstantFolder.Constant)
    }

    /// A description of the contradiction in the `&&` chain `e`, if there is one.
    static func contradiction(in e: Expression, checked: CheckedExpression) -> String? {
        var facts: [(key: String, fact: Fact)] = []
        collect(e, checked, into: &facts)
        var byKey: [String: [Fact]] = [:]
        var order: [String] = []
        for (k, f) in facts {
            if byKey[k] == nil { order.append(k) }
            byKey[k, default: []].append(f)
        }
        for key in order {
            if let why = conflict(byKey[key] ?? []) { return "\(key) \(why)" }
        }
        return nil
    }

    private static func conflict(_ facts: [Fact]) -> String? {
        var positive: [Kind] = [], negative: Set<Kind> = [], exists: Set<Bool> = [], equals: [ConstantFolder.Constant] = []
        for f in facts {
            switch f {
            case .type(let k, true): if !positive.contains(k) { positive.append(k) }
            case .type(let k, false): negative.insert(k)
            case .exists(let b): exists.insert(b)
            case .equals(let c): equals.append(c)
            }
        }
        if positive.count >= 2 { return "is tested to be both \(positive[0].phrase) and \(positive[1].phrase)" }
        if let k = positive.first(where: negative.contains) { return "is tested to be \(k.phrase) and not to be" }
        if exists.count == 2 { return "is tested to exist and not to exist" }
        if exists.contains(false), let k = positive.first { return "is tested not to exist and to be \(k.phrase)" }
        if let a = equals.first, let b = equals.dropFirst().first(where: { !ConstantFolder.equal($0, a) }) {
            return "is compared equal to both \(describe(a)) and \(describe(b))"
        }
        if let c = equals.first {
            let k = kind(of: c)
            if k == nil && (!positive.isEmpty || exists.contains(true)) { return "is tested to exist and to equal null" }
            if k != nil, exists.contains(false) { return "is tested not to exist and to equal \(describe(c))" }
            if let k, let p = positive.first, p != k { return "is tested to be \(p.phrase) and to equal \(describe(c))" }
            if let k, negative.contains(k) { return "is tested not to be \(k.phrase) and to equal \(describe(c))" }
        }
        return nil
    }

    private static func kind(of c: ConstantFolder.Constant) -> Kind? {
        switch c {
        case .null: nil
        case .bool: .boolean
        case .number: .number
        case .string: .string
        }
    }

    private static func describe(_ c: ConstantFolder.Constant) -> String {
        switch c {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s): "'\(s)'"
        }
    }

    private static func collect(_ e: Expression, _ checked: CheckedExpression, into facts: inout [(key: String, fact: Fact)]) {
        switch e.kind {
        case .logical(.and, let operands):
            for o in operands { collect(o, checked, into: &facts) }
        case .unary(.not, let x):
            // `!S.hasChildren(['a'])` and `!S.hasChild('a')` say only that a child is missing, not
            // that S is no object: no fact follows from them.
            if let (key, fact) = atom(x, checked), !namesChildren(x) {
                switch fact {
                case .type(let k, let b): facts.append((key, .type(k, !b)))
                case .exists(let b): facts.append((key, .exists(!b)))
                case .equals: break
                }
            }
        case .binary(let op, let l, let r, _) where op == .equal || op == .strictEqual:
            for (x, y) in [(l, r), (r, l)] {
                guard let c = ConstantFolder.fold(y) else { continue }
                if case .identifier(let name) = x.kind, case .wildcard? = checked.resolution(of: x) {
                    facts.append((name, .equals(c)))
                } else if case .call(let callee, _) = x.kind, case .call(.val)? = checked.resolution(of: x),
                    let recv = callee.receiver, let key = snapshotKey(recv, checked)
                {
                    facts.append((key, .equals(c)))
                }
            }
        default:
            if let (key, fact) = atom(e, checked) { facts.append((key, fact)) }
        }
    }

    /// `S.hasChild(...)` or `S.hasChildren(...)` with arguments.
    private static func namesChildren(_ e: Expression) -> Bool {
        guard case .call(let callee, let arguments) = e.kind, !arguments.isEmpty, case .member(_, let name, _) = callee.kind else { return false }
        return name == "hasChild" || name == "hasChildren"
    }

    /// A snapshot test: `S.isString()`, `S.exists()`, `S.hasChildren(...)`, with its key.
    private static func atom(_ e: Expression, _ checked: CheckedExpression) -> (String, Fact)? {
        guard case .call(let callee, _) = e.kind, case .call(let m)? = checked.resolution(of: e),
            let recv = callee.receiver, let key = snapshotKey(recv, checked)
        else { return nil }
        let fact: Fact
        switch m {
        case .isString: fact = .type(.string, true)
        case .isNumber: fact = .type(.number, true)
        case .isBoolean: fact = .type(.boolean, true)
        case .hasChildren, .hasChild: fact = .type(.object, true)
        case .exists: fact = .exists(true)
        default: return nil
        }
        return (key, fact)
    }

    /// A canonical name for a snapshot expression built from `root`/`data`/`newData`, `child()`
    /// with constant or `$wildcard` arguments, and `parent()`.
    package static func snapshotKey(_ e: Expression, _ checked: CheckedExpression) -> String? {
        switch e.kind {
        case .identifier(let name):
            switch checked.resolution(of: e) {
            case .root?, .data?, .newData?: return name
            default: return nil
            }
        case .call(let callee, let args):
            guard let recv = callee.receiver, let base = snapshotKey(recv, checked) else { return nil }
            switch checked.resolution(of: e) {
            case .call(.parent)?:
                return base + "/.."
            case .call(.child)?:
                guard let a = args.first else { return nil }
                if case .string(let s) = a.kind {
                    return ([base] + s.split(separator: "/").map(String.init)).joined(separator: "/")
                }
                if case .identifier(let name) = a.kind, case .wildcard? = checked.resolution(of: a) { return base + "/" + name }
                return nil
            default:
                return nil
            }
        default:
            return nil
        }
    }
}
