import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// An internal inconsistency denies the operation with an "Internal error" reason: it never
/// allows and never traps. The corrupt rulesets are built by hand through `CompiledRuleset`'s
/// public initializer, as a host could.
@Suite struct FailClosedTests {
    /// Reads at the root are granted by a rule that uses strings, paths, numbers and jumps.
    static let source = #"{"rules": {".read": "auth.uid == 'x' || root.child('a/b').exists() || now > 1", "a": {".write": true}}}"#

    static func compiled() throws -> CompiledRuleset {
        try #require(RulesCompiler.compile(source: source).ruleset)
    }

    /// Ways to damage a compiled ruleset, each of which the verifier must catch.
    enum Damage: String, CaseIterable, Sendable {
        case stringOperand, numberOperand, pathOperand, backwardJump, jumpPastRule, negativeWildcardSlot
        case missingRule, missingChildNode, codeOutsideInstructions, shortSideTable, noNodes
    }

    static func damaged(_ rs: CompiledRuleset, _ damage: Damage) -> CompiledRuleset {
        var nodes = rs.nodes, rules = rs.rules, code = rs.instructions, nodeTable = rs.instructionNodes
        func replaceFirst(_ ops: Set<Opcode>, with operand: Int32) {
            if let i = code.firstIndex(where: { ops.contains($0.opcode) }) { code[i].operand = operand }
        }
        func node(_ n: CompiledNode, read: Int32? = nil, wildcard: Int32? = nil) -> CompiledNode {
            CompiledNode(
                path: n.path, literals: n.literals, wildcard: wildcard ?? n.wildcard, wildcardName: n.wildcardName,
                read: read ?? n.read, write: n.write, validate: n.validate, validatesBelow: n.validatesBelow, indexOn: n.indexOn)
        }
        switch damage {
        case .stringOperand: replaceFirst([.pushString], with: 9_999)
        case .numberOperand: replaceFirst([.pushNumber], with: -1)
        case .pathOperand: replaceFirst([.childConst], with: Int32(rs.strings.count))
        case .backwardJump: replaceFirst([.jumpIfTrueOrPop], with: 0)
        case .jumpPastRule: replaceFirst([.jumpIfTrueOrPop], with: Int32(code.count + 5))
        case .negativeWildcardSlot:
            let r = rules[Int(nodes[0].read)]
            code[r.codeStart] = Instruction(.loadWildcard, -3)
        case .missingRule: nodes[0] = node(nodes[0], read: Int32(rules.count))
        case .missingChildNode: nodes[0] = node(nodes[0], wildcard: Int32(nodes.count + 1))
        case .codeOutsideInstructions:
            let r = rules[Int(nodes[0].read)]
            rules[Int(nodes[0].read)] = CompiledRule(
                kind: r.kind, rulePath: r.rulePath, constant: nil, codeStart: r.codeStart, codeEnd: code.count + 10,
                range: r.range, expression: r.expression)
        case .shortSideTable: nodeTable.removeLast()
        case .noNodes: nodes = []
        }
        return CompiledRuleset(
            file: rs.file, tree: rs.tree, nodes: nodes, rules: rules, instructions: code,
            instructionRanges: rs.instructionRanges, instructionNodes: nodeTable, numbers: rs.numbers, strings: rs.strings,
            regexes: rs.regexes, maxStackDepth: rs.maxStackDepth, diagnostics: rs.diagnostics)
    }

    @Test func compiledRulesetsHaveNoDefect() throws {
        let rs = try Self.compiled()
        #expect(rs.defect == nil)
        #expect(RulesEngine(ruleset: rs).decide(.read(path: "/"), on: nil, now: 5).allowed)
    }

    /// Every kind of damage is found, and the engine then denies even what the rules allow.
    @Test(arguments: Damage.allCases)
    func damagedRulesetDeniesEverything(_ damage: Damage) throws {
        let rs = Self.damaged(try Self.compiled(), damage)
        let defect = try #require(rs.defect, "\(damage) not detected")
        let engine = RulesEngine(ruleset: rs)
        for op in [DatabaseOperation.read(path: "/"), .set(path: "/a", value: 1)] {
            let d = engine.decide(op, on: nil, auth: .user(uid: "x"), now: 5, explain: true)
            #expect(!d.allowed)
            #expect(d.reason == "Internal error: the compiled rules are inconsistent (\(defect)); every operation is denied.")
            #expect(d.newRoot == nil)
        }
    }

    @Test func verifierNamesTheBadInstruction() throws {
        let rs = try Self.compiled()
        let pc = try #require(rs.instructions.firstIndex { $0.opcode == .pushString })
        let defect = try #require(Self.damaged(rs, .stringOperand).defect)
        #expect(defect.hasPrefix("instruction \(pc) (pushString 9999) of rule"))
        #expect(defect.hasSuffix("no entry 9999 among \(rs.strings.count) strings"))
    }

    /// The VM, used directly, refuses a damaged ruleset, a rule that does not exist and
    /// snapshot indices outside its table.
    @Test func vmFailsInsteadOfTrapping() throws {
        let good = try Self.compiled()
        var vm = VM()
        var tracer = NoTracer()
        var snaps = SnapshotTable()
        let root = snaps.addRoot(nil)
        let ok = EvaluationContext(auth: .null, now: 5, query: .none, wildcardKeys: [], root: root, data: root, newData: -1)
        #expect(vm.run(Int(good.nodes[0].read), in: good, context: ok, snapshots: &snaps, tracer: &tracer) == .value(true))

        func message(_ outcome: RuleOutcome) -> String? {
            if case .error(let e) = outcome { return e.message }
            return nil
        }
        let missing = vm.run(good.rules.count, in: good, context: ok, snapshots: &snaps, tracer: &tracer)
        #expect(message(missing) == "Internal error: there is no rule \(good.rules.count).")
        let outside = EvaluationContext(auth: .null, now: 5, query: .none, wildcardKeys: [], root: 7, data: root, newData: -1)
        let bad = vm.run(Int(good.nodes[0].read), in: good, context: outside, snapshots: &snaps, tracer: &tracer)
        #expect(message(bad) == "Internal error: snapshot 7 is not in the table.")
        let damaged = Self.damaged(good, .backwardJump)
        let refused = vm.run(Int(good.nodes[0].read), in: damaged, context: ok, snapshots: &snaps, tracer: &tracer)
        #expect(message(refused)?.hasPrefix("Internal error: the compiled rules are inconsistent (instruction ") == true)
    }

    /// The verifier does not bound the stack depth, so a ruleset that declares too small a
    /// depth must fail its rules with an error, never write past the stack. The same VM then
    /// runs a sound ruleset normally (the refused run left its stack empty).
    @Test func understatedStackDepthFailsTheRule() throws {
        let rs = try Self.compiled()
        #expect(rs.maxStackDepth >= 2)
        let lying = CompiledRuleset(
            file: rs.file, tree: rs.tree, nodes: rs.nodes, rules: rs.rules, instructions: rs.instructions,
            instructionRanges: rs.instructionRanges, instructionNodes: rs.instructionNodes, numbers: rs.numbers,
            strings: rs.strings, regexes: rs.regexes, maxStackDepth: 1, diagnostics: rs.diagnostics)
        var vm = VM()
        var tracer = NoTracer()
        var snaps = SnapshotTable()
        let root = snaps.addRoot(nil)
        let context = EvaluationContext(auth: .user(uid: "y"), now: 5, query: .none, wildcardKeys: [], root: root, data: root, newData: -1)
        let outcome = vm.run(Int(rs.nodes[0].read), in: lying, context: context, snapshots: &snaps, tracer: &tracer)
        guard case .error(let e) = outcome else {
            Issue.record("expected an error, got \(outcome)")
            return
        }
        #expect(e.message == "Internal error: the evaluation stack is full (the rule is denied).")
        let engine = RulesEngine(ruleset: lying)
        #expect(!engine.decide(.read(path: "/"), on: nil, auth: .user(uid: "y"), now: 5).allowed)
        // The same VM, its stack grown for the sound ruleset, then runs it to its answer.
        #expect(vm.run(Int(rs.nodes[0].read), in: rs, context: context, snapshots: &snaps, tracer: &tracer) == .value(true))
    }

    /// A clock that is not a finite number would store NaN or infinity as a timestamp: denied.
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteTimeDenies(_ now: Double) throws {
        let engine = RulesEngine(ruleset: try Self.compiled())
        let d = engine.decide(.set(path: "/a", value: .timestamp), on: nil, now: now)
        #expect(!d.allowed)
        #expect(d.reason == "Internal error: the server time \(now) is not a finite number.")
        #expect(engine.decide(.set(path: "/a", value: .timestamp), on: nil, now: 1).allowed)
    }
}
