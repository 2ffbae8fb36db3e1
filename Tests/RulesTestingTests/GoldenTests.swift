import RulesTestSupport
import Foundation
import RulesTesting
import Testing

/// The human report of a failing expectation, compared with a recorded golden text
/// (`Fixtures/WrongExpectationGolden.swift`). `RECORD_GOLDEN=1 swift test` rewrites it.
@Suite struct GoldenTests {
    static let goldenFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/WrongExpectationGolden.swift")

    @Test func wrongExpectationNamesTheDecidingRuleAndItsLine() throws {
        let (output, dir) = try SpecFixture.run([
            "wrong-expectation.test.yaml": WrongExpectationFixture.spec,
            "wrong-expectation.rules.json": WrongExpectationFixture.rules,
        ], paths: ["wrong-expectation.test.yaml"])
        defer { dir.remove() }
        #expect(output.exitCode == 1)
        let actual = output.stdout.replacingOccurrences(of: dir.path + "/", with: "")

        // Independent of the recording: the deciding rule is the title's .write on line 7.
        #expect(actual.contains("deciding rule: /posts/$postId/title/.write at wrong-expectation.rules.json:7:"))
        #expect(actual.contains("(line 7)"))
        #expect(actual.contains("expected allow, got deny"))
        #expect(actual.hasSuffix("\n2 passed, 1 failed\n"))

        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            // A raw multi-line literal: each line indented like the closing delimiter.
            let body = actual.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
            var source = "// The expected human output of GoldenTests; rewritten by `RECORD_GOLDEN=1 swift test`.\n"
            source += "enum WrongExpectationGolden {\n    static let text = ##\"\"\"\n"
            source += body + "\n        \"\"\"##\n}\n"
            try Data(source.utf8).write(to: Self.goldenFile)
            return
        }
        #expect(actual == WrongExpectationGolden.text, "golden mismatch; run RECORD_GOLDEN=1 swift test to re-record")
    }
}
