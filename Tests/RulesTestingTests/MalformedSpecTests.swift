import RulesTestSupport
import RulesTesting
import Testing

/// Every kind of unusable input is reported as `file:line:col: error: message`, with exit 2.
@Suite struct MalformedSpecTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { label }
    }

    static let header = #"rules: { rules: { ".read": true } }"# + "\n"

    static let cases: [Case] = [
        Case(label: "bad YAML", text: header + "tests: [ { read: /a\n", line: 3, column: 1, message: "invalid YAML: did not find expected ',' or '}'"),
        Case(label: "unknown identity", text: header + "auth: { alice: { uid: alice } }\ntests:\n  - { as: bob, read: /a, expect: allow }\n",
             line: 4, column: 11, message: "unknown identity 'bob' in 'as' (known: alice)"),
        Case(label: "two operations", text: header + "tests:\n  - read: /a\n    set: /b\n    value: 1\n    expect: allow\n",
             line: 4, column: 5, message: "a step has two operations: 'read' and 'set'"),
        Case(label: "no operation", text: header + "tests:\n  - name: nothing\n    expect: allow\n",
             line: 3, column: 5, message: "a step needs one operation: read, set, update, delete or push"),
        Case(label: "missing expect", text: header + "tests:\n  - steps:\n      - read: /a\n",
             line: 4, column: 9, message: "missing 'expect' (allow or deny)"),
        Case(label: "bad expect", text: header + "tests:\n  - { read: /a, expect: yes }\n",
             line: 3, column: 25, message: "'expect' must be allow or deny"),
        Case(label: "unknown step key", text: header + "tests:\n  - steps:\n      - read: /a\n        expct: allow\n",
             line: 5, column: 9, message: "unknown key 'expct' in a step"),
        Case(label: "unknown test key", text: header + "tests:\n  - read: /a\n    expect: allow\n    sead: {}\n",
             line: 5, column: 5, message: "unknown key 'sead' in a test"),
        Case(label: "unknown top-level key", text: header + "test: []\n",
             line: 2, column: 1, message: "unknown key 'test' in a spec file"),
        Case(label: "set without value", text: header + "tests:\n  - { set: /a, expect: allow }\n",
             line: 3, column: 7, message: "'set' needs 'value'"),
        Case(label: "value on a read", text: header + "tests:\n  - { read: /a, value: 1, expect: allow }\n",
             line: 3, column: 17, message: "'value' goes with 'set' or 'push', not 'read'"),
        Case(label: "step keys beside steps", text: header + "tests:\n  - as: alice\n    steps:\n      - { read: /a, expect: allow }\n",
             line: 3, column: 5, message: "'as' belongs in a step: a test with 'steps' cannot also have step keys"),
        Case(label: "tests not a list", text: header + "tests: 3\n",
             line: 2, column: 8, message: "'tests' must be a list, not a number"),
        Case(label: "bad server value", text: header + "tests:\n  - { set: /a, value: { .sv: later }, expect: allow }\n",
             line: 3, column: 30, message: "unknown server value"),
        Case(label: "bad identity", text: header + "auth: { x: { name: x } }\ntests: []\n",
             line: 2, column: 14, message: "unknown key 'name' in an identity"),
        Case(label: "bad seed path", text: header + "tests:\n  - seed: { \"/a.b\": 1 }\n    read: /a\n    expect: allow\n",
             line: 3, column: 13, message: "invalid seed path"),
        Case(label: "bad query key", text: header + "tests:\n  - { read: /a, query: { orderBy: x }, expect: allow }\n",
             line: 3, column: 26, message: "unknown key 'orderBy' in 'query'"),
        Case(label: "rules that do not compile", text: "rules:\n  rules:\n    \".read\": \"auth.uid ==\"\ntests: []\n",
             line: 3, column: 14, message: "[expression-syntax]"),
        Case(label: "duplicate key", text: header + "tests:\n  - { read: /a, read: /b, expect: allow }\n",
             line: 3, column: 7, message: "duplicate key 'read' in a mapping"),
        Case(label: "missing rules", text: "tests: []\n", line: 1, column: 1, message: "no rules: give 'rules:' in the spec file or pass --rules FILE"),
    ]

    @Test(arguments: cases)
    func reportsTheProblemAtItsPlace(_ c: Case) throws {
        let (output, dir) = try SpecFixture.run(["bad.test.yaml": c.text])
        defer { dir.remove() }
        #expect(output.exitCode == 2)
        #expect(output.result == nil)
        let prefix = "\(dir.path)/bad.test.yaml:\(c.line):\(c.column): error: "
        #expect(output.stderr.hasPrefix(prefix), "\(output.stderr)")
        #expect(output.stderr.contains(c.message), "\(output.stderr)")
    }

    @Test func rulesFileErrorsPointIntoTheRulesFile() throws {
        let (output, dir) = try SpecFixture.run([
            "s.test.yaml": "rules: db.rules.json\ntests: []\n",
            "db.rules.json": "{\n  \"rules\": {\n    \".read\": \"nope\"\n  }\n}\n",
        ], paths: ["s.test.yaml"])
        defer { dir.remove() }
        #expect(output.exitCode == 2)
        #expect(output.stderr == "\(dir.path)/db.rules.json:3:15: error: Unknown variable 'nope'. [unknown-variable]\n")
    }

    @Test func aMissingRulesFileIsReportedAtTheRulesKey() throws {
        let (output, dir) = try SpecFixture.run(["s.test.yaml": "tests: []\nrules: missing.json\n"])
        defer { dir.remove() }
        #expect(output.exitCode == 2)
        #expect(output.stderr.hasPrefix("\(dir.path)/s.test.yaml:2:8: error: no such rules file: "))
    }

    @Test func jsonSpecErrorsHaveLineAndColumn() throws {
        let (output, dir) = try SpecFixture.run(["s.test.json": "{\n  \"rules\": {\"rules\": {}},\n  \"tests\": [{\"read\": \"/\"}]\n}\n"])
        defer { dir.remove() }
        #expect(output.exitCode == 2)
        #expect(output.stderr == "\(dir.path)/s.test.json:3:13: error: missing 'expect' (allow or deny)\n")
        let (syntax, dir2) = try SpecFixture.run(["s.test.json": "{\"tests\": [}"])
        defer { dir2.remove() }
        #expect(syntax.exitCode == 2)
        #expect(syntax.stderr.hasPrefix("\(dir2.path)/s.test.json:1:"))
    }

    @Test func missingPathsAndTargaryenWithoutRules() throws {
        var options = TestCLIOptions(paths: ["/nonexistent/specs"])
        options.startTime = SpecFixture.now
        let missing = TestCLI.run(options)
        #expect(missing.exitCode == 2)
        #expect(missing.stderr == "/nonexistent/specs:1:1: error: no such file or directory\n")
        let targaryen = try SpecFixture.output(["t.json": #"{"users": {}, "tests": {"a": {"canRead": []}}}"#])
        #expect(targaryen.exitCode == 2, "a directory holding only t.json has no spec files")
        let (direct, dir3) = try SpecFixture.run(["t.json": #"{"users": {}, "tests": {"a": {"canRead": []}}}"#], paths: ["t.json"])
        defer { dir3.remove() }
        #expect(direct.stderr == "\(dir3.path)/t.json:1:1: error: a targaryen-style spec needs the rules file: pass --rules FILE\n")
    }
}
