import DatabaseRules
import Testing

/// One decision has a budget of steps (``EvaluationBudget``): running out denies the operation
/// with a reason naming the rule (file:line:col) and the data path, with or without an
/// explanation; ordinary decisions never come near it (every other suite runs with the default).
@Suite struct EvaluationBudgetTests {
    /// Every child is matched against a pattern that backtracks catastrophically on `aaa…ab`
    /// (within the per-match limit), and the rule passes when it does not match: without a
    /// budget per decision, a write of many such children ran for minutes.
    static let backtracking = #"{"rules": {".write": true, "$k": {".validate": "!newData.val().matches(/^(a|aa)+$/)"}}}"#

    static func children(_ count: Int, _ value: String) -> DataInput {
        .object((0..<count).map { (String(format: "k%05d", $0), DataInput.primitive(.string(value))) })
    }

    /// 24 `a`s and a `b`: tens of thousands of backtracking steps per match.
    static let slowSubject = String(repeating: "a", count: 24) + "b"

    @Test(arguments: [false, true])
    func catastrophicBacktrackingOnEveryChildRunsOutOfBudget(explain: Bool) throws {
        let rules = try Ruleset(source: Self.backtracking)
        let d = rules.decide(.set(path: "/", value: Self.children(2_000, Self.slowSubject)), on: Database(), now: 0, explain: explain)
        #expect(!d.allowed)
        #expect(d.isBudgetExhausted)
        #expect(!d.isRejected)
        let reason = try #require(d.reason)
        #expect(reason.hasPrefix("evaluation budget exhausted (50000000 steps) at /k0"), "\(reason)")
        #expect(reason.contains(" in /$k/.validate at database.rules.json:1:"), "\(reason)")
        if explain {
            let explanation = try #require(d.explanation)
            let decisive = try #require(explanation.decisive)
            #expect(decisive.rulePath == "/$k/.validate")
            guard case .error(let e) = decisive.outcome else {
                Issue.record("the deciding evaluation is \(decisive.outcome)")
                return
            }
            #expect(e.message == reason)
            // The budget stopped the evaluations: far fewer than the children.
            #expect(explanation.evaluations.count + explanation.omittedEvaluations < 1_000)
        }
    }

    /// The same children with a subject that matches at once are decided within the budget.
    @Test func ordinaryMatchesOnManyChildrenStayWithinTheBudget() throws {
        let rules = try Ruleset(source: Self.backtracking)
        let d = rules.decide(.set(path: "/", value: Self.children(20_000, "abc")), on: Database(), now: 0)
        #expect(d.allowed, "\(d.reason ?? "")")
        #expect(!d.isBudgetExhausted)
    }

    /// A host sets the budget; the reason names the rule, its position and the data path.
    @Test(arguments: [
        // (rules, operation, steps, expected start of the reason)
        (#"{"rules": {"a": {".read": "auth == null && now > 0 && now > 1 && now > 2"}}}"#, DatabaseOperation.read(path: "/a"), 3,
         "evaluation budget exhausted (3 steps) at /a in /a/.read at database.rules.json:1:"),
        (#"{"rules": {".write": true, "x": {"y": {".validate": "newData.val() + 'a' + 'b' + 'c' === 'zabc'"}}}}"#,
         DatabaseOperation.set(path: "/x/y", value: "z"), 4, "evaluation budget exhausted (4 steps) at /x/y in /x/y/.validate at database.rules.json:1:"),
        (#"{"rules": {"$a": {".write": "now > 1 && now > 2 && now > 3"}}}"#, DatabaseOperation.set(path: "/q", value: 1), 2,
         "evaluation budget exhausted (2 steps) at /q in /$a/.write at database.rules.json:1:"),
    ] as [(String, DatabaseOperation, Int, String)])
    func aSmallBudgetDeniesWithTheRuleAndPath(source: String, operation: DatabaseOperation, steps: Int, reason: String) throws {
        var rules = try Ruleset(source: source)
        #expect(rules.decide(operation, on: Database(), now: 5).allowed)
        rules.budget = EvaluationBudget(steps: steps)
        for explain in [false, true] {
            let d = rules.decide(operation, on: Database(), now: 5, explain: explain)
            #expect(!d.allowed)
            #expect(d.isBudgetExhausted)
            #expect(d.reason?.hasPrefix(reason) == true, "\(d.reason ?? "nil")")
        }
        rules.budget = .unlimited
        #expect(rules.decide(operation, on: Database(), now: 5).allowed)
    }

    /// A `.write` that grants after another ran out of budget does not allow the write: the
    /// operation fails closed.
    @Test func aLaterGrantDoesNotOutweighAnExhaustedBudget() throws {
        var rules = try Ruleset(source: #"{"rules": {".write": "now > 1 && now > 2 && now > 3", "a": {".write": true}}}"#)
        rules.budget = EvaluationBudget(steps: 3)
        let d = rules.decide(.set(path: "/a", value: 1), on: Database(), now: 5)
        #expect(!d.allowed)
        #expect(d.isBudgetExhausted)
        #expect(d.reason?.contains("in /.write at") == true)
    }

    /// A denial found before the budget ran out stands, with its own reason, with or without an
    /// explanation (which goes on evaluating the other rules).
    @Test func aDenialBeforeTheBudgetRanOutKeepsItsReason() throws {
        var rules = try Ruleset(source: #"{"rules": {".write": true, "a": {".validate": false}, "b": {".validate": "now > 1 && now > 2 && now > 3 && now > 4"}}}"#)
        rules.budget = EvaluationBudget(steps: 6)
        for explain in [false, true] {
            let d = rules.decide(.set(path: "/", value: ["a": 1, "b": 2]), on: Database(), now: 5, explain: explain)
            #expect(!d.allowed)
            #expect(!d.isBudgetExhausted)
            #expect(d.reason == "/a/.validate failed on /a")
        }
    }
}
