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
}
