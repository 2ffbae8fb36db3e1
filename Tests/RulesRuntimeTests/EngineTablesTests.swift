import RulesCompiler
import Testing

@testable import RulesRuntime

/// The facts the engine reads about each rule: which rules need their location, and which are
/// a bare `auth` null check that an untraced decision answers without the VM.
@Suite struct EngineTablesTests {
    static func tables(_ expression: String) throws -> (EngineTables, Int) {
        let source = "{\"rules\": {\"a\": {\".read\": \"\(expression)\"}}}"
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let rule = try #require(ruleset.nodes.first { $0.read >= 0 }?.read)
        return (EngineTables(ruleset), Int(rule))
    }

    @Test(arguments: [
        ("auth != null", Int8(1)), ("auth !== null", 1), ("null != auth", 1),
        ("auth == null", 0), ("auth === null", 0), ("null === auth", 0),
        ("auth != null && true", -1), ("auth.uid != null", -1), ("auth != 'x'", -1), ("!(auth == null)", -1),
    ])
    func bareAuthNullChecksAreRecognised(expression: String, expected: Int8) throws {
        let (tables, rule) = try Self.tables(expression)
        #expect(tables.rules[rule].authCheck == expected)
    }

    @Test(arguments: [
        ("auth != null", false), ("$x === 'a'", true), ("data.exists()", true), ("newData.exists()", true),
        ("root.child('a').exists()", false), ("auth.uid === 'a'", false),
    ])
    func rulesThatReadTheirLocationAreFlagged(expression: String, reads: Bool) throws {
        let source = "{\"rules\": {\"$x\": {\".validate\": \"\(expression)\"}}}"
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let rule = try #require(ruleset.nodes.first { $0.validate >= 0 }?.validate)
        #expect(EngineTables(ruleset).rules[Int(rule)].readsLocation == reads)
    }

    /// The shortcut and the VM (which an explanation runs) agree, signed in and out.
    @Test(arguments: ["auth != null", "null !== auth", "auth == null", "auth === null"])
    func theShortcutDecidesAsTheVirtualMachine(expression: String) throws {
        let source = "{\"rules\": {\"a\": {\".read\": \"\(expression)\"}}}"
        let engine = RulesEngine(ruleset: try #require(RulesCompiler.compile(source: source).ruleset))
        var scratch = DecisionScratch()
        let expectSignedIn = expression.contains("!")
        for (auth, signedIn) in [(AuthValue.null, false), (.user(uid: "u"), true)] {
            let op = DatabaseOperation.read(path: "/a")
            let fast = engine.decide(op, on: nil, auth: auth, now: 1, scratch: &scratch).allowed
            let explained = engine.decide(op, on: nil, auth: auth, now: 1, explain: true)
            #expect(fast == (signedIn == expectSignedIn))
            #expect(explained.allowed == fast)
            #expect(explained.explanation?.evaluations.count == 1)
        }
    }

    /// Constant keys carry their ranks, and only a `hasChildren` fed straight by string
    /// constants is marked as such; a jump into the middle of its names, or a name with a "/",
    /// leaves the general path.
    @Test func constantKeysAndNamesAreFound() throws {
        let strings = ["uid", "a/b", "", "7"]
        let code: [Instruction] = [
            Instruction(.loadData, 0),        // 0
            Instruction(.pushString, 0),      // 1
            Instruction(.pushString, 1),      // 2
            Instruction(.hasChildren, 2),     // 3: constant names
            Instruction(.loadData, 0),        // 4
            Instruction(.pushString, 0),      // 5
            Instruction(.pushString, 3),      // 6: entered by the jump at 9
            Instruction(.hasChildren, 2),     // 7: not constant
            Instruction(.childConst, 2),      // 8: "" has no rank
            Instruction(.jump, 6),            // 9
            Instruction(.loadWildcard, 0),    // 10
            Instruction(.hasChildren, 1),     // 11: fed by a wildcard
        ]
        let (ranks, names) = EngineTables.constantKeys(code, strings)
        #expect(ranks[1] == KeyOrder.rank("uid"))
        #expect(ranks[2] == KeyOrder.unknownRank)
        #expect(ranks[6] == KeyOrder.rank("7"))
        #expect(ranks[8] == KeyOrder.unknownRank)
        #expect(ranks[0] == KeyOrder.unknownRank)
        #expect(names == [false, false, false, true, false, false, false, false, false, false, false, false])
    }

    /// Constant names and keys give the same answers as the general path, on a flat node, a
    /// wide node, integer keys and a path name. The engine (with or without an explanation)
    /// runs with its tables; the public `VM.run` has none, so it takes the general path.
    @Test func constantKeyLookupsDecideAsTheGeneralPath() throws {
        let source = #"{"rules": {"$x": {".read": "data.hasChildren(['a', '7', 'k050']) && data.child('k049').exists() && data.hasChild('b') && !data.hasChild('zz') && data.hasChildren(['a', 'c/d'])"}}}"#
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        let rule = try #require(ruleset.nodes.first { $0.read >= 0 }?.read)
        func general(_ root: DataNode?) -> RuleOutcome {
            var vm = VM()
            var tracer = NoTracer()
            var snaps = SnapshotTable()
            let r = snaps.addRoot(root)
            let n = snaps.addChild(of: r, key: "n")
            let context = EvaluationContext(auth: .null, now: 1, query: .none, wildcardKeys: ["n"], root: r, data: n, newData: -1)
            return vm.run(Int(rule), in: ruleset, context: context, snapshots: &snaps, tracer: &tracer)
        }
        func tree(wide: Bool, dropping: String?) -> DataNode? {
            var pairs: [(String, DataNode)] = [
                ("a", DataNode(leaf: .number(1))), ("7", DataNode(leaf: .number(2))), ("b", DataNode(leaf: .bool(true))),
                ("c", DataNode.object([("d", DataNode(leaf: .string("x")))])!),
                ("k050", DataNode(leaf: .number(3))), ("k049", DataNode(leaf: .number(4))),
            ]
            if wide { for i in 0..<100 { pairs.append(("w\(i)", DataNode(leaf: .number(Double(i))))) } }
            pairs.removeAll { $0.0 == dropping }
            return DataNode.object([("n", DataNode.object(pairs)!)])
        }
        var scratch = DecisionScratch()
        for wide in [false, true] {
            for dropping in [nil, "a", "7", "k050", "k049", "b", "c"] as [String?] {
                let root = tree(wide: wide, dropping: dropping)
                let fast = engine.decide(.read(path: "/n"), on: root, now: 1, scratch: &scratch).allowed
                let explained = engine.decide(.read(path: "/n"), on: root, now: 1, explain: true).allowed
                #expect(fast == (dropping == nil), "wide \(wide), without \(dropping ?? "nothing")")
                #expect(explained == fast)
                #expect(general(root) == .value(fast))
            }
        }
    }
}
