import RulesTestSupport
import Foundation
import Testing

/// `rules test` as a process: it ends by exiting with the loaded specs still held, so these check
/// that every report is written whole before the exit, and that the exit status is the run's.
@Suite struct TestCommandTests {
    static let rules = #"{ "rules": { "a": { ".read": "auth != null", ".write": "auth != null" } } }"#

    static func spec(expectingRead read: String) -> String {
        """
        rules: database.rules.json
        tests:
          - name: signed in reads
            as: { uid: u }
            read: /a
            expect: \(read)
          - name: anonymous writes
            set: /a
            value: 1
            expect: deny
        """
    }

    /// A directory holding the rules and a spec whose read step expects `read`; the spec's path.
    static func specFiles(expectingRead read: String) throws -> (dir: TemporaryDirectory, spec: String) {
        let dir = try TemporaryDirectory()
        try dir.write("database.rules.json", rules)
        return (dir, try dir.write("a.test.yaml", spec(expectingRead: read)))
    }

    @Test(RulesBinary.required)
    func passingRunExitsZeroWithTheWholeReport() throws {
        let (dir, spec) = try Self.specFiles(expectingRead: "allow")
        defer { dir.remove() }
        let junit = dir.file("junit.xml").path
        let result = try RulesBinary.run(["test", spec, "--junit", junit])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasSuffix("2 passed, 0 failed\n"))
        #expect(result.output.contains("✓ signed in reads"))
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains("<testsuites") && report.hasSuffix("</testsuites>\n"))
    }

    @Test(RulesBinary.required)
    func failingRunExitsOneWithTheReasonOfTheFailedStep() throws {
        let (dir, spec) = try Self.specFiles(expectingRead: "deny")
        defer { dir.remove() }
        let text = try RulesBinary.run(["test", spec])
        #expect(text.status == 1)
        #expect(text.output.contains("✗ signed in reads"))
        #expect(text.output.contains("expected deny, got allow"))
        #expect(text.output.hasSuffix("1 passed, 1 failed\n"))
        let json = try RulesBinary.run(["test", spec, "--format", "json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["failed"] as? Int == 1)
    }

    @Test(RulesBinary.required)
    func unusableSpecExitsTwo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let spec = try dir.write("a.test.yaml", "tests: [")
        let result = try RulesBinary.run(["test", spec])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("a.test.yaml:"))
    }
}
