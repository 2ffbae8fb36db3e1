import Foundation
import RulesCoverage
import RulesTesting
import Testing

/// Coverage: rules evaluated, rule outcomes, operand and condition outcomes, errors, the minimum.
@Suite struct CoverageTests {
    static let spec = """
        rules:
          rules:
            a:
              ".write": "auth != null && (newData.val() > 5 || newData.val() === 0)"
              ".read": "auth.uid.length > 0 ? true : false"
            b:
              ".read": "true && auth.uid.length > 0"
              ".write": false
        tests:
          - steps:
              - { as: { uid: u }, set: /a, value: 7, expect: allow }
              - { as: { uid: u }, set: /a, value: 0, expect: allow }
              - { as: { uid: u }, set: /a, value: 3, expect: deny }
              - { set: /a, value: 7, expect: deny }
              - { read: /b, expect: deny }
              - { as: { uid: u }, read: /a, expect: allow }
        """

    private func coverage(configure: (inout TestCLIOptions, URL) -> Void = { o, _ in o.coverage = true }) throws -> (CoverageCollector, TestCLIOutput) {
        try withCoverage(configure: configure) { collector, output, _ in (collector, output) }
    }

    /// Runs the spec with coverage and hands `body` the directory while it still holds what the
    /// run wrote; the directory is removed afterwards.
    private func withCoverage<R>(configure: (inout TestCLIOptions, URL) -> Void, _ body: (CoverageCollector, TestCLIOutput, URL) throws -> R) throws -> R {
        let (output, dir) = try SpecFixture.run(["c.test.yaml": Self.spec], configure: configure)
        defer { dir.remove() }
        #expect(output.result?.failedSteps == 0, "\(output.stdout)\(output.stderr)")
        return try body(try #require(output.coverage), output, dir.url)
    }

    @Test func ruleAndOperandOutcomes() throws {
        let (c, _) = try coverage()
        let file = try #require(c.files.first)
        let rules = Dictionary(uniqueKeysWithValues: file.rules.map { ($0.rulePath, $0) })
        let write = try #require(rules["/a/.write"])
        #expect(write.evaluations == 4)
        #expect(write.trueCount == 2 && write.falseCount == 2 && write.errorCount == 0)
        // Operands in source order (texts without the parentheses): auth != null, the || group, newData.val() > 5, newData.val() === 0.
        #expect(write.branches.map(\.text) == ["auth != null", "newData.val() > 5 || newData.val() === 0", "newData.val() > 5", "newData.val() === 0"])
        #expect(write.branches.map(\.trueCount) == [3, 2, 1, 1])
        #expect(write.branches.map(\.falseCount) == [1, 1, 2, 1])

        let readA = try #require(rules["/a/.read"])
        #expect(readA.evaluations == 1 && readA.trueCount == 1)
        #expect(readA.branches.map(\.role) == [.condition])
        #expect(readA.branches[0].trueCount == 1 && readA.branches[0].falseCount == 0)

        // Signed out, auth.uid fails: the rule and the operand holding the failure count an error.
        let readB = try #require(rules["/b/.read"])
        #expect(readB.errorCount == 1)
        #expect(readB.branches.map(\.errorCount) == [0, 1])
        #expect(readB.branches[0].trueCount == 1)

        let never = try #require(rules["/b/.write"])
        #expect(never.evaluations == 0 && never.constant == false)
        #expect(c.evaluatedRules == 3 && c.totalRules == 4)
        #expect(c.percent == 75)
    }

    @Test func textSummaryListsRulesNeverEvaluated() throws {
        let (_, output) = try coverage()
        #expect(output.stdout.contains(": 75.0% of rules evaluated (3/4)"))
        #expect(output.stdout.contains("never evaluated:\n"))
        #expect(output.stdout.contains("/b/.write (") && output.stdout.contains("c.test.yaml (inline rules):"))
        #expect(output.stdout.hasSuffix("\n6 passed, 0 failed\n"))
    }

    @Test func minimumCoverageFailsTheRun() throws {
        let (_, below) = try coverage { o, _ in o.minCoverage = 80 }
        #expect(below.exitCode == 1)
        #expect(below.stderr.contains("rule coverage 75.0% is below the minimum of 80%"))
        let (_, above) = try coverage { o, _ in o.minCoverage = 75 }
        #expect(above.exitCode == 0)
    }

    @Test func coverageJSONHasTheTopLevelPercent() throws {
        let data = try withCoverage(configure: { o, dir in o.coverageJSONPath = dir.appendingPathComponent("cov.json").path }) { _, _, dir in
            try Data(contentsOf: dir.appendingPathComponent("cov.json"))
        }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["percent"] as? Double == 75)
        let files = try #require(object["files"] as? [[String: Any]])
        let rules = try #require(files.first?["rules"] as? [[String: Any]])
        #expect(rules.count == 4)
        #expect(rules.contains { $0["rulePath"] as? String == "/b/.read" && $0["error"] as? Int == 1 })
    }
}
