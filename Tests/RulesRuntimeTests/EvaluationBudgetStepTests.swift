import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// What costs a step of the ``EvaluationBudget``, counted exactly: the smallest budget that
/// decides an operation as it is decided without a limit.
@Suite struct EvaluationBudgetStepTests {
    /// The fewest steps that allow `operation` (which is allowed with no limit), found by bisection.
    static func stepsNeeded(_ source: String, _ operation: DatabaseOperation, data: String = "null") throws -> Int {
        var engine = RulesEngine(ruleset: try RuleProbe.ruleset(source))
        let root = try DataNode.fromJSON(data)
        engine.budget = .unlimited
        #expect(engine.decide(operation, on: root, now: 1).allowed)
        var low = 1, high = 10_000_000
        while low < high {
            let mid = (low + high) / 2
            engine.budget = EvaluationBudget(steps: mid)
            let d = engine.decide(operation, on: root, now: 1)
            if d.allowed { high = mid } else { #expect(d.isBudgetExhausted); low = mid + 1 }
        }
        return low
    }

    @Test(arguments: [
        // A constant rule costs one step (the rule evaluated).
        (#"{"rules": {".read": true}}"#, DatabaseOperation.read(path: "/"), "null", 1),
        // `now > 0`: the rule, and three instructions (now, 0, >; a boolean's return is fused).
        (#"{"rules": {".read": "now > 0"}}"#, DatabaseOperation.read(path: "/"), "null", 4),
        // One regular expression that matches at once: the rule, two instructions, and the first
        // try's limit of 100.
        (#"{"rules": {".read": "'abc'.matches(/^a/)"}}"#, DatabaseOperation.read(path: "/"), "null", 1 + 2 + 100),
        // A 6,400-byte string compared: the rule, three instructions (`data.val()` is fused), and
        // one step per 64 bytes of the operand.
        (#"{"rules": {".read": "data.val() != 'x'"}}"#, DatabaseOperation.read(path: "/"), "\"\(String(repeating: "a", count: 6_400))\"", 1 + 3 + 100),
    ] as [(String, DatabaseOperation, String, Int)])
    func stepsOfSmallDecisions(source: String, operation: DatabaseOperation, data: String, steps: Int) throws {
        let needed = try Self.stepsNeeded(source, operation, data: data)
        #expect(needed == steps, "needed \(needed)")
    }

    /// A runaway match pays for every try, up to the pattern's limit; one the budget cannot pay
    /// for is not made.
    @Test func aRunawayMatchPaysForItsTries() throws {
        let regex = try CompiledRegex(firebasePattern: "^(a|aa)+$", caseInsensitive: false, matchLimit: 1_000_000)
        var steps = 10_000_000
        let subject = String(repeating: "a", count: 24) + "b"
        #expect(try regex.matches(subject, steps: &steps) == false)
        // At least the three smaller tries failed; at most all five were paid for.
        #expect(10_000_000 - steps > 11_100)
        #expect(10_000_000 - steps <= 1_111_100)
        var few = 5_000
        #expect(try regex.matches(subject, steps: &few) == nil)
        #expect(few < 0)
        var enough = 100
        #expect(try regex.matches("aa", steps: &enough) == true)
        #expect(enough == 0)
    }
}
