import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `skipped-check`: see ``SkippedCheckLint``.
    public static let skippedCheck = LintCode(declaring: "skipped-check")
}

/// `skipped-check`: in `A || B`, B is evaluated only when A is false; when A is a type test of
/// the new value (`newData.isString()`) and B a bound on it (`newData.val().length <= 2800000`),
/// every value A accepts skips the bound. Reported at A with a witness the engine allowed: a
/// value that passes A and breaks B.
enum SkippedCheckLint: ModelLint {
    static let code = LintCode.skippedCheck
    static let category = LintCategory.security
    static let securitySeverity: Double? = 5.3
    static let summary = "One branch of an || skips the check another branch makes."
    static let help =
        "In A || B, B is evaluated only when A is false. When A is a type test (newData.isString()) and B the check on that type (newData.val().length <= 100), every value A accepts skips the check. Write A && B."

    /// The longest string a witness writes.
    static let maxLength = 10_000_000

    private struct Bound {
        var onLength: Bool
        var op: BinaryOperator
        var constant: Double
        var constantOnLeft: Bool
        var expression: Expression

        func holds(_ x: Double) -> Bool {
            let (a, b) = constantOnLeft ? (constant, x) : (x, constant)
            switch op {
            case .less: return a < b
            case .lessOrEqual: return a <= b
            case .greater: return a > b
            case .greaterOrEqual: return a >= b
            default: return true
            }
        }
    }

    static func check(_ context: inout ThreatContext) -> [LintFinding] {
        var out: [LintFinding] = []
        let locations = context.model.locations
        let privileges = context.model.privileges
        var nodes: [RuleNode] = []
        context.tree.forEachNode { nodes.append($0) }
        for node in nodes {
            for kind in [RuleKind.validate, .write] {
                guard case .expression(let c)? = node.rule(kind)?.body else { continue }
                for (a, bound) in pairs(c.root, c) {
                    let location = locations.first { $0.node === node }
                        ?? AccessLocation(node: node, kind: .other, ownerWildcards: [], ownerFields: [])
                    let world = AccessWorld(location, links: privileges, ownerWildcards: location.ownerWildcards)
                    var found: LintWitness?
                    search: for value in values(bound, typeTest: a.method) {
                        for who in [AccessPrincipal.owner, .stranger, .anonymous] {
                            let w = LintWitness(identity: who.identity, data: world.data, steps: [
                                .init(.set, world.path, value: value, note: "\(c.text(of: a.expression)) holds, so \(c.text(of: bound.expression)) is skipped"),
                            ])
                            let (ran, _) = context.runner.run(w)
                            if ran.confirmed { found = ran; break search }
                        }
                    }
                    guard let witness = found else { continue }
                    var f = LintFinding(
                        code: code,
                        message: "When \(c.text(of: a.expression)) is true, the check \(c.text(of: bound.expression)) in another branch of this || is never made: a value it should reject is accepted. Use && between a type test and the check on that type.",
                        range: c.fileRange(of: a.expression), anchor: "\(node.pathDescription) \(kind.key) skipped-check \(c.text(of: bound.expression))")
                    f.witness = witness
                    f.witnessSearched = true
                    f.related = [LintRelated(range: c.fileRange(of: bound.expression), message: "the check that is skipped")]
                    out.append(f)
                }
            }
        }
        return out
    }

    private struct TypeTest {
        var method: Method
        var expression: Expression
    }

    /// (type test, bound) pairs of the `||`s in `e`: the bound is in a later alternative.
    private static func pairs(_ e: Expression, _ c: CheckedExpression) -> [(TypeTest, Bound)] {
        var out: [(TypeTest, Bound)] = []
        if case .logical(.or, let list) = e.kind {
            for (i, x) in list.enumerated() {
                guard let t = typeTest(x, c) else { continue }
                for y in list[(i + 1)...] {
                    for b in bounds(y, c) { out.append((t, b)) }
                }
            }
        }
        for s in e.subexpressions { out += pairs(s, c) }
        return out
    }

    private static func typeTest(_ e: Expression, _ c: CheckedExpression) -> TypeTest? {
        guard case .call(let callee, _) = e.kind, case .call(let m)? = c.resolution(of: e), m == .isString || m == .isNumber,
            let recv = callee.receiver, ConditionFacts.snapshotKey(recv, c) == "newData"
        else { return nil }
        return TypeTest(method: m, expression: e)
    }

    /// Relational bounds on `newData.val()` or `newData.val().length` in `e` (outside `||`s).
    private static func bounds(_ e: Expression, _ c: CheckedExpression) -> [Bound] {
        var out: [Bound] = []
        if case .binary(let op, let l, let r, _) = e.kind, op.isRelational {
            for (x, y, left) in [(l, r, false), (r, l, true)] {
                guard case .number(let n)? = ConstantFolder.fold(y) else { continue }
                if let onLength = subject(x, c) {
                    out.append(Bound(onLength: onLength, op: op, constant: n, constantOnLeft: left, expression: e))
                }
            }
            return out
        }
        if case .logical(.or, _) = e.kind { return [] }
        for s in e.subexpressions { out += bounds(s, c) }
        return out
    }

    /// true for `newData.val().length`, false for `newData.val()`, nil otherwise.
    private static func subject(_ x: Expression, _ c: CheckedExpression) -> Bool? {
        if case .member(let o, "length", _) = x.kind, isNewVal(o, c) { return true }
        return isNewVal(x, c) ? false : nil
    }

    private static func isNewVal(_ x: Expression, _ c: CheckedExpression) -> Bool {
        guard case .call(let callee, _) = x.kind, case .call(.val)? = c.resolution(of: x), let recv = callee.receiver else { return false }
        return ConditionFacts.snapshotKey(recv, c) == "newData"
    }

    /// Values that pass the type test and break the bound.
    private static func values(_ b: Bound, typeTest: Method) -> [WitnessValue] {
        var out: [WitnessValue] = []
        for x in [b.constant + 1, b.constant - 1, b.constant, (b.constant * 2).rounded(), 0] where !b.holds(x) {
            if b.onLength, typeTest == .isString {
                guard x >= 0, x <= Double(maxLength), x == x.rounded() else { continue }
                out.append(.string(String(repeating: "x", count: Int(x))))
            } else if !b.onLength, typeTest == .isNumber {
                out.append(.number(x))
            }
        }
        return out
    }
}
