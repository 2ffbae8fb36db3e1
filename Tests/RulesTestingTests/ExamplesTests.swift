import Foundation
import RulesCompiler
import RulesCoverage
import RulesSyntax
import RulesTestSupport
import RulesTesting
import Testing

/// Every bundled example app (`rules-examples/*`), run through the loader and the runner: all
/// steps pass, there are enough of them, and each app's rules are well covered.
@Suite struct ExamplesTests {
    /// The example folders, by name.
    static func exampleFolders() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.examples.path)
        return names.filter { name in
            var isDirectory: ObjCBool = false
            let path = TestPaths.examples.appendingPathComponent(name).path
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }

    /// One run of every example, shared by the tests below.
    static let run = Result { try runAll() }

    /// Loads every spec under the examples and runs them with coverage.
    static func runAll() throws -> (specs: [TestSpec], result: TestRunResult, coverage: CoverageCollector) {
        var loader = TestSpecLoader()
        let specs = try TestSpecLoader.specFiles(in: [TestPaths.examples.path]).map { path throws(TestSpecErrors) in
            try loader.load(path: path)
        }
        // Every example pins its own `now`; this clock is only the runner's default.
        var runner = TestRunner(startTime: 1_700_000_000_000, coverage: CoverageCollector())
        let result = runner.run(specs)
        return (specs, result, try #require(runner.coverage))
    }

    @Test func everyExampleStepPasses() throws {
        let (specs, result, _) = try Self.run.get()
        let failures = result.tests.flatMap { test in
            test.steps.filter { !$0.passed }.map { "\(test.file): \(test.name) step \($0.index): \($0.description)" }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(result.failedSteps == 0)
        #expect(result.passedSteps >= 60)
        #expect(specs.count >= 4)
    }

    @Test func everyExampleFolderHasRulesTestsAndAReadme() throws {
        let folders = try Self.exampleFolders()
        #expect(Set(["blog", "chat", "multitenant", "queries"]).isSubset(of: Set(folders)))
        for folder in folders {
            let dir = TestPaths.examples.appendingPathComponent(folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(files.contains("database.rules.json"), "\(folder)")
            #expect(files.contains("README.md"), "\(folder)")
            #expect(files.contains(where: TestSpecLoader.isSpecFile), "\(folder)")
        }
    }

    @Test func eachExampleHasAllowedAndDeniedStepsAndHighCoverage() throws {
        let (specs, result, coverage) = try Self.run.get()
        for folder in try Self.exampleFolders() {
            let prefix = TestPaths.examples.appendingPathComponent(folder).path + "/"
            let rules = try #require(coverage.files.first { $0.path.hasPrefix(prefix) }, "\(folder) has no rules in the run")
            #expect(rules.percent >= 90, "\(folder): \(rules.percent)% of rules evaluated")
            // Skipped tests (`skip: true`) are documentation; every other step runs.
            let steps = specs.filter { $0.path.hasPrefix(prefix) }.flatMap(\.tests).filter { !$0.skip }.flatMap(\.steps)
            #expect(steps.contains { $0.expectAllow } && steps.contains { !$0.expectAllow }, "\(folder)")
            let ran = result.tests.filter { $0.file.hasPrefix(prefix) }.reduce(0) { $0 + $1.steps.count }
            #expect(ran == steps.count && ran >= 30, "\(folder): \(ran) steps")
        }
    }

    @Test func exampleRulesCheckWithoutErrorsOrWarnings() throws {
        for folder in try Self.exampleFolders() {
            let path = TestPaths.examples.appendingPathComponent(folder).appendingPathComponent("database.rules.json").path
            let data = try #require(FileManager.default.contents(atPath: path))
            let compiled = RulesCompiler.compile(SourceFile(path: path, bytes: [UInt8](data)))
            #expect(compiled.ruleset != nil, "\(folder)")
            #expect(compiled.diagnostics.isEmpty, "\(folder): \(compiled.diagnostics.map(\.message))")
        }
    }
}
