import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// A rules document and what compiling it must report, for a choice the spec leaves open.
struct RulesFileCase: Sendable, CustomTestStringConvertible {
    let label: String
    let document: String
    /// The diagnostics expected, as (severity, code), in file order.
    let expected: [(Severity, DiagnosticCode)]

    var compiles: Bool { !expected.contains { $0.0 == .error } }
    var testDescription: String { label }

    init(_ label: String, _ document: String, _ expected: [(Severity, DiagnosticCode)]) {
        self.label = label
        self.document = document
        self.expected = expected
    }
}

/// The choices made where the spec says "unverified" about what the server accepts at deploy
/// (spec §1.1, §3.2, §12 questions 3–5). See docs/decisions.md.
@Suite struct RulesFileDecisionTests {
    static let cases: [RulesFileCase] = [
        RulesFileCase("duplicate keys are an error", #"{"rules": {".read": true, ".read": false}}"#, [(.error, .jsonDuplicateKey)]),
        RulesFileCase("duplicate child keys are an error", #"{"rules": {"a": {}, "a": {}}}"#, [(.error, .jsonDuplicateKey)]),
        RulesFileCase("a trailing comma is a warning", #"{"rules": {".read": true,},}"#, [(.warning, .jsonTrailingComma), (.warning, .jsonTrailingComma)]),
        RulesFileCase("comments are accepted", "{\"rules\": {/* c */ \".read\": true // c\n}}", []),
        RulesFileCase("extra top-level keys are an error", #"{"rules": {}, "other": 1}"#, [(.error, .topLevelKey)]),
        RulesFileCase(".read: null is an error", #"{"rules": {".read": null}}"#, [(.error, .invalidRuleValue)]),
        RulesFileCase(".validate: null is an error", #"{"rules": {".validate": null}}"#, [(.error, .invalidRuleValue)]),
        RulesFileCase("a wildcard name that is not an identifier is a warning", #"{"rules": {"$a-b": {".read": true}}}"#, [(.warning, .wildcardName)]),
        RulesFileCase("a wildcard name starting with a digit is a warning", #"{"rules": {"$1a": {".read": true}}}"#, [(.warning, .wildcardName)]),
        RulesFileCase("a bare $ is an invalid key", #"{"rules": {"$": {".read": true}}}"#, [(.error, .invalidKey)]),
        RulesFileCase("a repeated wildcard name is a warning", #"{"rules": {"$id": {"$id": {".read": true}}}}"#, [(.warning, .wildcardShadowed)]),
        RulesFileCase("a control character in a rule key is an error", #"{"rules": {"a\u0001": {}}}"#, [(.error, .invalidKey)]),
        RulesFileCase("1 < 'a' is rejected at compile time", #"{"rules": {".read": "1 < 'a'"}}"#, [(.error, .invalidOperand)]),
        RulesFileCase("'a' >= 1 is rejected at compile time", #"{"rules": {".read": "'a' >= 1"}}"#, [(.error, .invalidOperand)]),
        RulesFileCase("a null literal in an ordering is rejected", #"{"rules": {".read": "data.val() < null"}}"#, [(.error, .invalidOperand)]),
        RulesFileCase("a dynamic ! operand is rejected", #"{"rules": {".read": "!auth.isAdmin"}}"#, [(.error, .notBoolean)]),
        RulesFileCase("! of val() is rejected", #"{"rules": {".read": "!data.val()"}}"#, [(.error, .notBoolean)]),
        RulesFileCase("! of a comparison is fine", #"{"rules": {".read": "!(auth.isAdmin == true)"}}"#, []),
        RulesFileCase("+ with a null literal is rejected", #"{"rules": {".read": "data.val() + null == 1"}}"#, [(.error, .invalidOperand)]),
        RulesFileCase("a ternary with non-boolean branches under && is rejected", #"{"rules": {".read": "(auth == null ? 1 : 2) && true"}}"#, [(.error, .notBoolean)]),
        RulesFileCase("a ternary with mixed branches as the rule is rejected", #"{"rules": {".read": "auth == null ? 7 : true"}}"#, [(.error, .notBoolean)]),
        RulesFileCase("query is allowed in .write", #"{"rules": {".write": "query.orderByKey == false"}}"#, []),
        RulesFileCase("query is allowed in .validate", #"{"rules": {".validate": "query.limitToFirst == null"}}"#, []),
        RulesFileCase("exponent number literals are accepted", #"{"rules": {".read": "1e3 == 1000 && 2.5E-1 == 0.25"}}"#, []),
        RulesFileCase("hex number literals are rejected", #"{"rules": {".read": "0x10 == 16"}}"#, [(.error, .expressionSyntax)]),
    ]

    @Test(arguments: cases) func compileDiagnostics(_ c: RulesFileCase) {
        let result = RulesCompiler.compile(source: c.document)
        let found = result.diagnostics.map { "\($0.severity) \($0.code)" }
        #expect(found == c.expected.map { "\($0.0) \($0.1)" }, "\(result.diagnostics.map(\.message))")
        #expect((result.ruleset != nil) == c.compiles)
    }

    /// The inner of two same-named wildcards binds the name below it.
    @Test func repeatedWildcardNameRefersToTheInnermost() throws {
        let rules = #"{"rules": {"$id": {".read": "$id == 'a'", "$id": {".read": "$id == 'b'"}}}}"#
        let d = try RuleProbe.decide(rules, .read(path: "/x/b"), root: nil)
        #expect(d.allowed)
        #expect(RuleProbe.outcomes(d) == [.isFalse, .isTrue])
        let outer = try RuleProbe.decide(rules, .read(path: "/a/c"), root: nil)
        #expect(outer.allowed, "$id is 'a' at the outer level")
    }

    /// A wildcard whose name is not an identifier still matches keys; it just cannot be named.
    @Test func nonIdentifierWildcardStillMatches() throws {
        let rules = #"{"rules": {"$a-b": {".read": true}}}"#
        #expect(try RuleProbe.decide(rules, .read(path: "/anything"), root: nil).allowed)
        let named = RuleProbe.diagnostics(#"{"rules": {"$a-b": {".read": "$a-b == 'x'"}}}"#)
        #expect(named.containsErrors, "$a-b in an expression is $a minus b")
    }

    /// `query` in a write rule sees a plain read's values: every field false or null.
    @Test func queryInWriteRulesHasNoQuery() throws {
        let rules = #"{"rules": {".write": "query.orderByKey == false && query.orderByChild == null && query.limitToFirst == null", ".validate": "query.equalTo == null"}}"#
        #expect(try RuleProbe.decide(rules, .set(path: "/a", value: 1), root: nil).allowed)
        let ordering = #"{"rules": {".write": "query.limitToFirst <= 2"}}"#
        let d = try RuleProbe.decide(ordering, .set(path: "/a", value: 1), root: nil)
        #expect(!d.allowed)
        #expect(RuleProbe.outcomes(d) == [.error])
    }
}
