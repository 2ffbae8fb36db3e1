import RulesTestSupport
import RulesRuntime
import RulesTesting
import Testing

/// Loading spec files: YAML (core schema), JSON with comments, inline rules, identities, queries.
@Suite struct SpecLoadingTests {
    @Test func yamlUsesTheCoreSchema() throws {
        let spec = try SpecFixture.load("""
            rules: { rules: { ".read": true, ".write": true } }
            tests:
              - name: core schema
                set: /a
                value: { answer: no, big: 1e12, octal: 0o17, yes: yes, t: true, n: ~ , quoted: "true" }
                expect: allow
            """)
        guard case .set(_, let value) = spec.tests[0].steps[0].operation else {
            Issue.record("expected a set")
            return
        }
        let expected: DataInput = ["answer": "no", "big": 1e12, "octal": 15, "yes": "yes", "t": true, "n": nil, "quoted": "true"]
        #expect(value == expected)
    }

    @Test func jsonSpecsAllowCommentsAndKeepRulePositionsInTheSpecFile() throws {
        let spec = try SpecFixture.load("""
            {
              // inline rules
              "rules": {"rules": {
                ".read": "auth != null"
              }},
              "tests": [{"name": "read", "as": {"uid": "u1"}, "read": "/", "expect": "allow"}]
            }
            """, name: "spec.test.json")
        #expect(spec.tests.count == 1)
        #expect(spec.rules.path.hasSuffix("spec.test.json"))
        let rule = try #require(spec.rules.ruleset.rules.first)
        let at = spec.rules.ruleset.file.location(of: rule.range)
        #expect(at.line == 4 && at.column == 14)
    }

    @Test func rulesPathIsRelativeToTheSpecFile() throws {
        let spec = try SpecFixture.load(
            "rules: ../rules/db.rules.json\ntests:\n  - {read: /, expect: deny}\n", name: "specs/a.test.yaml",
            extra: ["rules/db.rules.json": #"{"rules": {".read": false}}"#])
        #expect(spec.rules.path.hasSuffix("rules/db.rules.json"))
        #expect(!spec.rules.path.contains(".."))
        #expect(spec.tests[0].name == "test 1")
    }

    @Test func identitiesBecomeAuthValues() throws {
        let spec = try SpecFixture.load("""
            rules: { rules: { ".read": true } }
            auth:
              bob: { uid: bob, provider: password, token: { admin: true } }
              anon: null
            tests:
              - steps:
                  - { as: bob, read: /, expect: allow }
                  - { as: anon, read: /, expect: allow }
                  - { as: { uid: carol }, read: /, expect: allow }
                  - { read: /, expect: allow }
            """)
        let steps = spec.tests[0].steps
        #expect(steps[0].auth == .user(uid: "bob", provider: "password", claims: ["admin": true]))
        #expect(steps[0].auth["token"]["firebase"]["sign_in_provider"] == "password")
        #expect(steps[1].auth == .null)
        #expect(steps[2].auth == .user(uid: "carol"))
        #expect(steps[2].auth["provider"] == "custom")
        #expect(steps[3].auth == .null)
    }

    @Test func queriesAndWriteKinds() throws {
        let spec = try SpecFixture.load("""
            rules: { rules: { ".read": true, ".write": true } }
            tests:
              - steps:
                  - { read: /a, query: { orderByChild: owner, equalTo: u1, limitToFirst: 10 }, expect: allow }
                  - { read: /a, query: { orderByKey: true, startAt: b }, expect: allow }
                  - { update: /a, values: { b/c: 1, /d: { .sv: timestamp } }, expect: allow }
                  - { push: /a, value: [x, y], priority: 3, expect: allow }
                  - { delete: /a, expect: allow }
            """)
        let steps = spec.tests[0].steps
        guard case .read(_, let q1) = steps[0].operation, case .read(_, let q2) = steps[1].operation,
              case .update(let base, let values) = steps[2].operation, case .push(_, let pushed) = steps[3].operation,
              case .delete(let deleted) = steps[4].operation
        else {
            Issue.record("unexpected operations")
            return
        }
        #expect(q1 == QueryParameters(orderByChild: "owner", equalTo: .string("u1"), limitToFirst: 10))
        #expect(q2 == QueryParameters(orderByKey: true, startAt: .string("b")))
        #expect(base == "/a")
        #expect(values.map(\.0) == ["b/c", "/d"])
        #expect(values[1].1 == .timestamp)
        #expect(pushed == .withPriority(["x", "y"], priority: 3))
        #expect(deleted == "/a")
    }

    @Test func exportFormatInData() throws {
        let spec = try SpecFixture.load("""
            rules: { rules: { ".read": true } }
            data: { a: { .value: 1, .priority: 2 }, b: { c: true, .priority: x } }
            tests: [ { read: /, expect: allow } ]
            """)
        #expect(spec.data == ["a": .withPriority(1, priority: 2), "b": .withPriority(["c": true], priority: "x")])
    }

    @Test func targaryenSpecsAreDetectedByTheirTestsObject() throws {
        let dir = try SpecFixture.write([
            "rules.json": #"{"rules": {".read": "auth != null", "$x": {".write": "auth.admin === true"}}}"#,
            "tests.json": """
                {"root": {"a": 1}, "users": {"admin": {"uid": "x", "admin": true}, "nobody": null},
                 "tests": {"a": {"canRead": ["admin"], "cannotRead": ["nobody"],
                                 "canWrite": [{"auth": "admin", "data": 2}], "cannotWrite": [{"auth": "nobody", "data": 2}]}}}
                """,
        ])
        defer { dir.remove() }
        var loader = TestSpecLoader(defaultRulesPath: dir.file("rules.json").path)
        let spec = try loader.load(path: dir.file("tests.json").path)
        #expect(spec.tests.map(\.name) == ["admin can read /a", "nobody cannot read /a", "admin can write /a", "nobody cannot write /a"])
        #expect(spec.tests[0].steps[0].auth == ["uid": "x", "admin": true])
        var runner = TestRunner(startTime: SpecFixture.now)
        let result = runner.run([spec])
        #expect(result.passedSteps == 4 && result.failedSteps == 0)
    }

    @Test func directoriesAreSearchedRecursivelyForSpecFiles() throws {
        let dir = try SpecFixture.write([
            "a.test.yaml": "", "sub/b.test.yml": "", "sub/deeper/c.test.json": "", "notes.yaml": "", "rules.json": "",
        ])
        defer { dir.remove() }
        let found = try TestSpecLoader.specFiles(in: [dir.path])
        #expect(found.map { String($0.dropFirst(dir.path.count + 1)) } == ["a.test.yaml", "sub/b.test.yml", "sub/deeper/c.test.json"])
    }
}
