import RulesTestSupport
import RulesCompiler
import RulesRuntime
import RulesSyntax

/// A rule's result: true, false or a runtime error; or something that should not happen.
enum Verdict: Equatable, CustomStringConvertible {
    case isTrue, isFalse, error
    /// The rule was not evaluated, or explain and no-explain runs disagree, or it does not parse.
    case broken(String)

    init(_ r: Result<Bool, RefError>) {
        switch r {
        case .success(let b): self = b ? .isTrue : .isFalse
        case .failure: self = .error
        }
    }

    var description: String {
        switch self {
        case .isTrue: "true"
        case .isFalse: "false"
        case .error: "runtime error"
        case .broken(let why): "broken (\(why))"
        }
    }
}

/// The rule kind an expression is wrapped as.
enum WrapKind: String, CaseIterable { case read, write, validate }

/// One expression-level case: a generated expression as the only `.read`, `.write` or
/// `.validate` at `/$x/b/$y`, decided for one data tree, auth and written value.
struct ExpressionCase {
    var expression: GenExpr
    var kind: WrapKind
    var data: RefData?
    /// The value set at the location (write and validate kinds; never null for validate).
    var written: RefInput
    var auth: RefInput
    var now: Double
    var x: String
    var y: String
    /// The query of a read (nil for a plain read).
    var query: RefQuery? = nil

    var path: [String] { [x, "b", y] }

    func rules(full: Bool) -> RefRuleNode {
        let text = expression.render(full: full)
        var leaf = RefRuleNode()
        switch kind {
        case .read: leaf.read = text
        case .write: leaf.write = text
        case .validate: leaf.validate = text
        }
        let b = RefRuleNode(wildcard: ("$y", leaf))
        return RefRuleNode(write: kind == .validate ? "true" : nil, wildcard: ("$x", RefRuleNode(children: [("b", b)])))
    }

    var operation: RefOperation { kind == .read ? .read(path, query) : .set(path, written) }

    /// The written value as stored: server values resolved, nulls and `{}` pruned.
    var writtenNode: RefData? {
        RefData.pruned(RefData.resolved(written, old: RefData.at(data, path), now: now))
    }

    /// The compiled rules, or nil when the checker rejects them (with its first error).
    func compile() -> (CompiledRuleset?, String?) {
        let result = RulesCompiler.compile(source: rules(full: false).document)
        return (result.ruleset, result.diagnostics.first { $0.severity == .error }?.message)
    }

    func vmVerdict(_ ruleset: CompiledRuleset) -> Verdict {
        let engine = RulesEngine(ruleset: ruleset)
        let op = ProjectBridge.operation(operation)
        let root = ProjectBridge.tree(data)
        let auth = ProjectBridge.auth(auth)
        let explained = engine.decide(op, on: root, auth: auth, now: now, explain: true)
        let plain = engine.decide(op, on: root, auth: auth, now: now, explain: false)
        if explained.allowed != plain.allowed { return .broken("explain changes the verdict") }
        let wanted: RuleKind = kind == .read ? .read : (kind == .write ? .write : .validate)
        guard let e = explained.explanation?.evaluations.first(where: { $0.kind == wanted }) else { return .broken("not evaluated") }
        let v: Verdict
        switch e.outcome {
        case .value(true): v = .isTrue
        case .value(false): v = .isFalse
        case .error: v = .error
        }
        if plain.allowed != (v == .isTrue) { return .broken("allowed is \(plain.allowed) but the rule was \(v)") }
        return v
    }

    func referenceVerdict() -> Verdict {
        guard let root = ExpressionParser.parse(expression.render(full: true)).root else { return .broken("does not parse") }
        let newRoot = kind == .read ? data : RefData.replacing(data, at: path, with: writtenNode)
        var ctx = RefContext(oldRoot: data, newRoot: newRoot, path: path, auth: auth, now: now, variables: ["$x": x, "$y": y])
        if kind == .read, let query { ctx.query = query }
        return Verdict(ReferenceInterpreter(context: ctx).evaluate(root))
    }

    /// nil when the checker rejects the expression; otherwise both verdicts.
    func verdicts() -> (vm: Verdict, reference: Verdict)? {
        guard let ruleset = compile().0 else { return nil }
        return (vmVerdict(ruleset), referenceVerdict())
    }

    var disagrees: Bool {
        guard let v = verdicts() else { return false }
        return v.vm != v.reference
    }

    static func random(_ g: inout SplitMix64) -> ExpressionCase {
        let kind = g.pick(WrapKind.allCases)
        let gen = ExpressionGenerator(allowNewData: kind != .read, variables: ["$x", "$y"])
        var written = DataGenerator.input(&g, depth: 2, nulls: true)
        if kind == .read { written = .null }
        if kind == .validate && RefData.pruned(RefData.resolved(written, old: nil, now: 0)) == nil { written = DataGenerator.primitive(&g) }
        let query = kind == .read && g.chance(0.4) ? RefQuery.random(&g) : nil
        var c = ExpressionCase(
            expression: gen.bool(&g, 2 + g.below(3)), kind: kind, data: DataGenerator.tree(&g, depth: 4),
            written: written, auth: DataGenerator.auth(&g), now: g.pick([1_700_000_000_000, 0, 2]),
            x: g.pick(DataGenerator.keys), y: g.pick(DataGenerator.keys))
        c.query = query
        return c
    }

    /// Smaller cases that might still disagree.
    func smaller() -> [ExpressionCase] {
        // Big cheap steps first: the greedy shrinker takes the first candidate that still fails.
        var out: [ExpressionCase] = []
        if auth != .null { var c = self; c.auth = .null; out.append(c) }
        if data != nil { var c = self; c.data = nil; out.append(c) }
        if kind == .read && written != .null { var c = self; c.written = .null; out.append(c) }
        for e in expression.smaller() { var c = self; c.expression = e; out.append(c) }
        if case .object(let m) = auth {
            for i in m.indices { var c = self; var n = m; n.remove(at: i); c.auth = .object(n); out.append(c) }
        }
        for d in Shrinker.smallerTrees(data) { var c = self; c.data = d; out.append(c) }
        if query != nil { var c = self; c.query = nil; out.append(c) }
        for w in Shrinker.smallerInputs(written) where kind != .validate || RefData.pruned(RefData.resolved(w, old: nil, now: 0)) != nil {
            var c = self; c.written = w; out.append(c)
        }
        if now != 0 { var c = self; c.now = 0; out.append(c) }
        return out
    }

    /// The case as text ready to paste into a regression test.
    var report: String {
        let v = verdicts()
        return """
            expression: \(expression.render())
            as: .\(kind.rawValue) at /$x/b/$y, path \(RefOperation.text(path))
            rules: \(rules(full: false).document)
            data: \(data.map { RefInput($0).json } ?? "null")
            auth: \(auth.json)
            operation: \(operation)  (now = \(RefNumberText.js(now)))
            VM: \(v.map { "\($0.vm)" } ?? "rejected"), reference: \(v.map { "\($0.reference)" } ?? "rejected")
            regression: ExpressionRegression(expression: \(RefInput.quote(expression.render())), kind: .\(kind.rawValue), data: \(RefInput.quote(data.map { RefInput($0).json } ?? "null")), written: \(written.swiftLiteral), auth: \(auth.swiftLiteral), now: \(RefNumberText.js(now)), x: \(RefInput.quote(x)), y: \(RefInput.quote(y)), query: \(query?.swiftLiteral ?? ".none"), expected: .\(v?.reference == .isTrue ? "isTrue" : v?.reference == .isFalse ? "isFalse" : "error"))
            """
    }
}
