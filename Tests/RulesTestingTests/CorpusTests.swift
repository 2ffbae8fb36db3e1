import RulesTestSupport
import Foundation
import RulesTesting
import Testing

/// The targaryen integration suite (`Tests/Data/corpus/targaryen-integration`) and the bundled blog spec.
@Suite struct CorpusTests {
    @Test func targaryenIntegrationRunsItsEightCasesAllPassing() throws {
        let dir = TestPaths.corpus.appendingPathComponent("targaryen-integration")
        var options = TestCLIOptions(paths: [dir.appendingPathComponent("tests.json").path])
        options.rulesPath = dir.appendingPathComponent("rules.json").path
        options.showTimes = false
        let output = TestCLI.run(options)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.exitCode == 0)
        let result = try #require(output.result)
        #expect(result.tests.count == 8)
        #expect(result.passedSteps == 8 && result.failedSteps == 0)
        #expect(output.stdout.hasSuffix("\n8 passed, 0 failed\n"))
        #expect(result.tests.filter { $0.name.contains("cannot") }.count == 5)
    }

    @Test func blogSpecPassesWithHighRuleCoverage() throws {
        var options = TestCLIOptions(paths: [TestPaths.examples.appendingPathComponent("blog").path])
        options.coverage = true
        options.minCoverage = 90
        let output = TestCLI.run(options)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.exitCode == 0)
        let result = try #require(output.result)
        #expect(result.failedSteps == 0)
        #expect(result.passedSteps >= 25)
        let coverage = try #require(output.coverage)
        let blog = try #require(coverage.files.first { $0.path.hasSuffix("blog/database.rules.json") })
        #expect(blog.percent >= 90)
        #expect(output.stdout.contains("of rules evaluated"))
    }
}
