import RulesTesting
import Testing

/// How tests and steps run: shared state within a test, denied writes not applied, seeds, clocks.
@Suite struct StepSemanticsTests {
    /// `/a` is readable only while it holds 1, and writing 3 is refused.
    static let rules = #"rules: { rules: { a: { ".read": "data.val() === 1", ".write": "newData.val() !== 3" }, t: { ".write": "newData.val() === now" }, "$p": { ".write": true, ".read": true } } }"#

    private func run(_ body: String) throws -> TestRunResult {
        let output = try SpecFixture.output(["s.test.yaml": Self.rules + "\n" + body])
        return try #require(output.result, "\(output.stderr)")
    }

    private func outcomes(_ r: TestRunResult) -> [[String]] {
        r.tests.map { $0.steps.map(\.actual) }
    }

    @Test func stepsShareStateAndDeniedWritesChangeNothing() throws {
        let r = try run("""
            tests:
              - name: state
                steps:
                  - { read: /a, expect: deny }
                  - { set: /a, value: 1, expect: allow }
                  - { read: /a, expect: allow }
                  - { set: /a, value: 3, expect: deny }
                  - { read: /a, expect: allow }
                  - { set: /a, value: 2, expect: allow }
                  - { read: /a, expect: deny }
            """)
        #expect(outcomes(r) == [["deny", "allow", "allow", "deny", "allow", "allow", "deny"]])
        #expect(r.passedSteps == 7 && r.failedSteps == 0)
    }

    @Test func testsStartAfreshFromDataAndSeed() throws {
        let r = try run("""
            data: { a: 2 }
            tests:
              - steps:
                  - { set: /a, value: 1, expect: allow }
                  - { read: /a, expect: allow }
              - read: /a
                expect: deny
              - seed: { /a: 1 }
                read: /a
                expect: allow
              - data: { a: 1 }
                read: /a
                expect: allow
              - data: { a: 1 }
                seed: { /a: null }
                read: /a
                expect: deny
            """)
        #expect(outcomes(r) == [["allow", "allow"], ["deny"], ["allow"], ["allow"], ["deny"]])
    }

    @Test func seedsResolveServerValuesWithTheTestClock() throws {
        // /a is readable only while it holds 1: a timestamp seeded at clock 1 is 1, at clock 5 it
        // is 5; an increment on a missing location is its amount. Seeds are written in order.
        let r = try run("""
            tests:
              - now: 1
                seed: { /a: { .sv: timestamp } }
                read: /a
                expect: allow
              - now: 5
                seed: { /a: { .sv: timestamp } }
                read: /a
                expect: deny
              - seed: { /a: { .sv: { increment: 1 } } }
                read: /a
                expect: allow
              - seed: { /a: { b: 1 }, /a/b: null, /a/c: 2, /a/c/d: null }
                read: /a
                expect: allow
            """)
        #expect(outcomes(r) == [["allow"], ["deny"], ["allow"], ["deny"]])
    }

    @Test func clocksComeFromStepTestFileOrRunStart() throws {
        let r = try run("""
            now: 100
            tests:
              - steps:
                  - { set: /t, value: 100, expect: allow }
                  - { set: /t, value: 7, now: 7, expect: allow }
                  - { set: /t, value: { .sv: timestamp }, now: 9, expect: allow }
              - now: 42
                set: /t
                value: 42
                expect: allow
            """)
        #expect(outcomes(r) == [["allow", "allow", "allow"], ["allow"]])
        let output = try SpecFixture.output(["s.test.yaml": Self.rules + "\ntests:\n  - { set: /t, value: 1700000000000, expect: allow }\n"])
        #expect(output.result?.passedSteps == 1, "the default clock is the run's start time")
    }

    @Test func clientSideRefusalsAreDenials() throws {
        let r = try run("""
            tests:
              - steps:
                  - { update: /, values: { x: 1, x/y: 2 }, expect: deny }
                  - { set: "/x/a.b", value: 1, expect: deny }
                  - { set: /x, value: { "a#b": 1 }, expect: deny }
                  - { set: /x/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20/21/22/23/24/25/26/27/28/29/30/31, value: 1, expect: deny }
                  - { set: /x/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20/21/22/23/24/25/26/27/28/29/30, value: 1, expect: allow }
            """)
        #expect(outcomes(r) == [["deny", "deny", "deny", "deny", "allow"]])
        #expect(r.tests[0].steps[0].reason?.contains("overlap") == true)
    }

    @Test func pushWritesUnderANewKeyWithItsPriority() throws {
        let output = try SpecFixture.output(["s.test.yaml": """
            rules: { rules: { list: { "$k": { ".write": "newData.getPriority() === 5 && $k.length === 20", ".read": "data.val() === 'v'" }, ".read": "data.hasChildren()" } } }
            tests:
              - steps:
                  - { read: /list, expect: deny }
                  - { push: /list, value: v, expect: deny }
                  - { push: /list, value: v, priority: 5, expect: allow }
                  - { read: /list, expect: allow }
            """])
        let r = try #require(output.result, "\(output.stderr)")
        #expect(r.tests[0].steps.map(\.actual) == ["deny", "deny", "allow", "allow"])
    }

    @Test func readsArePlainUnlessAQueryIsGiven() throws {
        let output = try SpecFixture.output(["s.test.yaml": """
            rules: { rules: { ".read": "query.orderByKey === false && query.limitToFirst === null", q: { ".read": "query.orderByChild === 'owner' && query.equalTo === auth.uid" } } }
            tests:
              - steps:
                  - { read: /x, expect: allow }
                  - { read: /x, query: { orderByKey: true }, expect: deny }
                  - { as: { uid: u1 }, read: /q, query: { orderByChild: owner, equalTo: u1, limitToFirst: 1 }, expect: allow }
                  - { as: { uid: u1 }, read: /q, query: { orderByChild: owner, equalTo: u2, limitToFirst: 1 }, expect: deny }
            """])
        let r = try #require(output.result, "\(output.stderr)")
        #expect(r.tests[0].steps.map(\.actual) == ["allow", "deny", "allow", "deny"])
    }

    @Test func filterKeepsMatchingTests() throws {
        let output = try SpecFixture.output(["s.test.yaml": Self.rules + """

            tests:
              - { name: alpha one, read: /a, expect: deny }
              - { name: beta, read: /a, expect: allow }
              - { name: alpha two, read: /a, expect: deny }
            """]) { options, _ in options.filter = "alpha" }
        #expect(output.result?.tests.map(\.name) == ["alpha one", "alpha two"])
        #expect(output.exitCode == 0)
    }

    @Test func exitCodesAndTheClosingLine() throws {
        let pass = try SpecFixture.output(["s.test.yaml": Self.rules + "\ntests: [ { read: /a, expect: deny } ]\n"])
        #expect(pass.exitCode == 0)
        #expect(pass.stdout.hasSuffix("\n1 passed, 0 failed\n"))
        let fail = try SpecFixture.output(["s.test.yaml": Self.rules + "\ntests: [ { read: /a, expect: allow }, { read: /b, expect: allow } ]\n"])
        #expect(fail.exitCode == 1)
        #expect(fail.stdout.hasSuffix("\n1 passed, 1 failed\n"))
        #expect(fail.stdout.contains("✗ test 1"))
        #expect(fail.stdout.contains("✓ test 2"))
        let bad = try SpecFixture.output(["s.test.yaml": Self.rules + "\ntests: [ { read: /a } ]\n"])
        #expect(bad.exitCode == 2)
        #expect(bad.stdout.isEmpty)
    }
}
