import DatabaseRules
import Testing

@testable import DatabaseServer

/// The one-line reason of a denial.
@Suite struct DenialLineTests {
    /// With no rule on the path or above, a read names the `.read` rules and a write the
    /// `.write` ones.
    @Test(arguments: [
        (DatabaseOperation.read(path: "/a"), "read /a: no .read rule grants it on this path or above"),
        (.set(path: "/a", value: 1), "set /a: no .write rule grants it on this path or above"),
    ])
    func noRuleNamesTheKindOfRule(operation: DatabaseOperation, expected: String) throws {
        let rules = try Ruleset(source: #"{"rules": {"b": {".read": true, ".write": true}}}"#)
        let decision = rules.decide(operation, on: Database(), explain: true)
        #expect(!decision.allowed)
        #expect(DenialLine.line(decision) == expected)
    }

    /// An `||` that decided: every alternative, with its values.
    @Test func everyAlternativeOfAnOr() throws {
        let rules = try Ruleset(source: #"{"rules": {"n": {".write": "newData.val() === data.val() + 1 || newData.val() === data.val() - 1"}}}"#)
        let decision = rules.decide(.set(path: "/n", value: 9), on: try Database(json: #"{"n": 5}"#), explain: true)
        #expect(DenialLine.line(decision) == "set /n: /n/.write at database.rules.json:1:28 is false; newData.val() === data.val() + 1 is false: 9 === 6; newData.val() === data.val() - 1 is false: 9 === 4")
    }

    /// A read or write above the rules that would decide it: the rules below are named, with
    /// what to do instead.
    @Test(arguments: [
        (DatabaseOperation.read(path: "/"), "read /: no .read rule grants it on this path or above; rules below are not consulted for a read here (rules are not filters): /b/.read; read those locations instead"),
        (.set(path: "/", value: ["b": 1]), "set /: no .write rule grants it on this path or above; rules below are not consulted for a write here: /b/.write; write those locations instead (several at once with a multi-path update)"),
    ])
    func rulesBelowAreNamed(operation: DatabaseOperation, expected: String) throws {
        let rules = try Ruleset(source: #"{"rules": {"b": {".read": true, ".write": true}}}"#)
        let decision = rules.decide(operation, on: Database(), explain: true)
        #expect(DenialLine.line(decision) == expected)
    }
}
