import RulesTestSupport
import RulesCompiler
import RulesRuntime

/// One operation-level case: a small generated rules document, a data tree, a caller and one
/// read, set, multi-path update or delete; the VM's engine and the reference engine must agree
/// on allow or deny.
struct OperationCase {
    var rules: GenRules
    var data: RefData?
    var auth: RefInput
    var operation: RefOperation
    var now: Double

    func compile() -> CompiledRuleset? {
        RulesCompiler.compile(source: rules.rendered(full: false).document).ruleset
    }

    /// The plain decision (decided against the engine's write overlay), the explained one
    /// (decided on a tree built first) and the reference's; `sameTree` is whether the plain and
    /// explained decisions give the same tree after the operation.
    func verdicts() -> (vm: Bool, reference: Bool, explained: Bool, sameTree: Bool)? {
        guard let ruleset = compile() else { return nil }
        let engine = RulesEngine(ruleset: ruleset)
        let op = ProjectBridge.operation(operation)
        let root = ProjectBridge.tree(data)
        let a = ProjectBridge.auth(auth)
        let plain = engine.decide(op, on: root, auth: a, now: now, explain: false)
        let explained = engine.decide(op, on: root, auth: a, now: now, explain: true)
        let reference = ReferenceEngine(rules: rules.rendered(full: true)).decide(operation, on: data, auth: auth, now: now)
        let sameTree: Bool
        switch (plain.newRoot, explained.newRoot) {
        case (nil, nil): sameTree = true
        case (let x?, let y?): sameTree = x.isEqual(to: y)
        default: sameTree = false
        }
        return (plain.allowed, reference, explained.allowed, sameTree)
    }

    var disagrees: Bool {
        guard let v = verdicts() else { return false }
        return v.vm != v.reference || v.vm != v.explained || !v.sameTree
    }

    static func random(_ g: inout SplitMix64) -> OperationCase {
        let rules = GenRules.random(&g, depth: 3, variables: [])
        let data = DataGenerator.tree(&g, depth: 4)
        let op: RefOperation
        switch g.below(6) {
        case 0, 1: op = .read(DataGenerator.path(&g, count: g.below(4)), g.chance(0.3) ? RefQuery.random(&g) : nil)
        case 2 where g.chance(0.2):
            op = .push(DataGenerator.path(&g, count: g.below(3)), DataGenerator.input(&g, depth: 2, nulls: true), g.pick(["-Na", "b", "-Nz1"]))
        case 2, 3: op = .set(DataGenerator.path(&g, count: g.below(4)), DataGenerator.input(&g, depth: 2, nulls: true))
        case 4:
            let base = DataGenerator.path(&g, count: g.below(3))
            var entries: [([String], RefInput)] = []
            for _ in 0..<(1 + g.below(3)) {
                entries.append((DataGenerator.path(&g, count: 1 + g.below(2)), DataGenerator.input(&g, depth: 2, nulls: true)))
            }
            op = .update(base, entries)
        default: op = .delete(DataGenerator.path(&g, count: g.below(4)))
        }
        return OperationCase(rules: rules, data: data, auth: DataGenerator.auth(&g), operation: op, now: g.pick([1_700_000_000_000, 0]))
    }

    func smaller() -> [OperationCase] {
        // Big cheap steps first: the greedy shrinker takes the first candidate that still fails.
        var out: [OperationCase] = []
        if data != nil { var c = self; c.data = nil; out.append(c) }
        if auth != .null { var c = self; c.auth = .null; out.append(c) }
        for r in rules.smaller() { var c = self; c.rules = r; out.append(c) }
        for d in Shrinker.smallerTrees(data) { var c = self; c.data = d; out.append(c) }
        switch operation {
        case .set(let p, let v):
            for w in Shrinker.smallerInputs(v) { var c = self; c.operation = .set(p, w); out.append(c) }
        case .update(let p, let entries):
            for i in entries.indices {
                if entries.count > 1 {
                    var fewer = entries
                    fewer.remove(at: i)
                    var c = self; c.operation = .update(p, fewer); out.append(c)
                }
                for w in Shrinker.smallerInputs(entries[i].1) {
                    var changed = entries
                    changed[i].1 = w
                    var c = self; c.operation = .update(p, changed); out.append(c)
                }
            }
        default: break
        }
        return out
    }

    var report: String {
        let v = verdicts()
        return """
            rules: \(rules.rendered(full: false).document)
            data: \(data.map { RefInput($0).json } ?? "null")
            auth: \(auth.json)
            operation: \(operation)  (now = \(RefNumberText.js(now)))
            VM: \(v.map { $0.vm ? "allow" : "deny" } ?? "rejected") (explained: \(v.map { $0.explained ? "allow" : "deny" } ?? "-"), same new tree: \(v.map { $0.sameTree ? "yes" : "NO" } ?? "-")), reference: \(v.map { $0.reference ? "allow" : "deny" } ?? "rejected")
            regression: OperationRegression(name: "TODO", rules: \(RefInput.quote(rules.rendered(full: false).document)), data: \(RefInput.quote(data.map { RefInput($0).json } ?? "null")), auth: \(auth.swiftLiteral), operation: \(operation.swiftLiteral), now: \(RefNumberText.js(now)), allowed: \(v?.reference ?? false))
            """
    }
}
