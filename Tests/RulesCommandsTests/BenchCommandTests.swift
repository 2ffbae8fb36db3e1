import Foundation
import RulesBenchmark
import RulesTestSupport
import Testing

@testable import RulesCommands

/// `rules bench`: argument handling and the JSON shape (tiny iteration counts, no timing checks).
@Suite struct BenchCommandTests {
    static let blog = TestPaths.examples.appendingPathComponent("blog").path
    static let blogRules = TestPaths.examples.appendingPathComponent("blog/database.rules.json").path

    @Test func parsesEveryOption() throws {
        let command = try BenchCommand.parse([
            "a.test.yaml", "--format", "json", "--iterations", "3", "--rounds", "2", "--quick", "--rules", "r.json",
            "--blog-rules", "b.json", "--corpus", "/nonexistent-corpus",
        ])
        let o = command.options
        #expect(o.paths == ["a.test.yaml"])
        #expect(o.format == .json)
        #expect(o.iterations == 3 && o.rounds == 2)
        #expect(o.quick && !o.suite && !o.compileOnly)
        #expect(o.rulesPath == "r.json" && o.blogRulesPath == "b.json")
        // A corpus directory that does not exist is skipped rather than reported.
        #expect(o.corpusPath == nil)
    }

    @Test func parsesSuiteOptions() throws {
        let o = try BenchCommand.parse(["--suite", "--filter", "read", "--sizes", "1000, 100000,1000000"]).options
        #expect(o.suite && o.filter == "read")
        #expect(o.sizes == [1_000, 100_000, 1_000_000])
        #expect(BenchCLI.validate(o) == nil)
        for bad in ["", "10", "1000,x", "1000,,2000"] {
            let b = try BenchCommand.parse(["--suite", "--sizes", bad]).options
            #expect(BenchCLI.validate(b) == "--sizes must list database sizes from 12 to 50000000 nodes", "\(bad)")
        }
    }

    /// A filtered suite with tiny sizes and one iteration: the structure, not the figures.
    @Test func filteredSuiteRunsOnlyMatchingCases() throws {
        var options = BenchCLIOptions(paths: [])
        options.suite = true
        options.filter = "read"
        options.sizes = [120, 240]
        options.iterations = 1
        options.rounds = 1
        options.corpusPath = nil
        options.blogRulesPath = Self.blogRules
        options.format = .json
        let output = BenchCLI.run(options)
        #expect(output.exitCode == 0, "\(output.stderr)")
        let suite = try #require(output.report?.suite)
        // Two sizes of the read, the plain-API read at the first size, the size ratio of the
        // medians, and the ratio from alternating rounds on the smallest and largest database.
        #expect(suite.count == 5)
        #expect(suite.allSatisfy { $0.name.contains("read") })
        #expect(suite[3].note?.hasPrefix("ratios 1.00 / ") == true)
        #expect(suite[4].group == "database size, alternating rounds: 240 / 120")
        #expect(suite[4].note?.hasPrefix("ratio ") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let items = try #require(json["suite"] as? [[String: Any]])
        #expect(items.count == 5)
        #expect(items.allSatisfy { $0["group"] is String && $0["name"] is String && $0["nsPerOp"] != nil })
        // `rules` keeps the system allocator: allocations are reported only where a counter is
        // installed (rules-profile; this test binary when the benchmark tests installed it).
        if suite.first?.allocations != nil { #expect(AllocationCounter.isAvailable) }
    }

    /// `--filter native` runs the hand-written baseline pairs alone, each with its VM ratio.
    @Test func nativeFilterRunsTheBaselinePairs() throws {
        var options = BenchCLIOptions(paths: [])
        options.suite = true
        options.filter = "native"
        options.sizes = [120]
        options.iterations = 1
        options.rounds = 1
        options.corpusPath = nil
        options.blogRulesPath = Self.blogRules
        let output = BenchCLI.run(options)
        #expect(output.exitCode == 0, "\(output.stderr)")
        let suite = try #require(output.report?.suite)
        #expect(suite.count == 8)
        #expect(suite.allSatisfy { $0.group.hasPrefix("native Swift baseline") })
        let ratios = suite.filter { $0.name.hasPrefix("VM ") }
        #expect(ratios.map(\.name) == ["VM read", "VM set title", "VM denied set title (not the author)", "VM star update (2 paths)"])
        // The baseline decides as the VM does, or the ratio would say so.
        #expect(ratios.allSatisfy { $0.note?.hasPrefix("ratio ") == true && $0.note?.contains("DIFFER") == false })
    }

    @Test func rejectsAnUnknownFormat() {
        #expect(throws: (any Error).self) { try BenchCommand.parse(["x", "--format", "xml"]) }
    }

    @Test(arguments: [
        (["--iterations", "0", "x"], "--iterations must be at least 1"),
        (["--rounds", "0", "x"], "--rounds must be at least 1"),
        (["--compile-only", "--suite"], "--compile-only and --suite cannot be combined"),
        ([], "no spec files given (or use --suite)"),
        (["--compile-only"], "no rules files given"),
    ])
    func refusesUnusableOptions(arguments: [String], message: String) throws {
        let options = try BenchCommand.parse(arguments).options
        #expect(BenchCLI.validate(options) == message)
        let output = BenchCLI.run(options)
        #expect(output.exitCode == 2)
        #expect(output.stderr == "error: \(message)\n")
        #expect(output.stdout.isEmpty)
    }

    @Test func benchCommandIsRegistered() {
        #expect(RulesCommand.configuration.subcommands.contains { $0 == BenchCommand.self })
    }

    @Test func specJSONHasOneOperationPerStep() throws {
        var options = BenchCLIOptions(paths: [Self.blog])
        options.format = .json
        options.iterations = 1
        options.rounds = 1
        var labels: [String] = []
        let output = BenchCLI.run(options) { labels.append($0) }
        #expect(output.exitCode == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(json["version"] as? Int == 1)
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect((files.first?["file"] as? String)?.hasSuffix("blog/database.rules.json") == true)
        #expect(files.first?["compileMs"] is Double || files.first?["compileMs"] is Int)
        let operations = try #require(json["operations"] as? [[String: Any]])
        let report = try #require(output.report)
        let steps = report.operations
        #expect(operations.count == steps.count)
        #expect(operations.count >= 20)
        for op in operations {
            #expect(Set(op.keys).isSuperset(of: ["file", "test", "step", "kind", "nsPerOp"]))
            #expect(["read", "set", "update", "delete", "push"].contains(op["kind"] as? String ?? ""))
            #expect((op["file"] as? String)?.hasSuffix("blog.test.yaml") == true)
            #expect((op["step"] as? Int ?? 0) >= 1)
        }
        // The first test of blog.test.yaml: an update, then two reads, each from the state the
        // update left (the reads are allowed only because the post exists).
        #expect(steps.prefix(3).map(\.kind) == ["update", "read", "read"])
        #expect(steps.prefix(3).map(\.allowed) == [true, true, true])
        #expect(steps.prefix(3).map(\.step) == [1, 2, 3])
        // Progress names each step.
        #expect(labels.contains { $0.contains("step 2") })
    }

    @Test func stepsSeeTheStateThatTheirTestBuilds() throws {
        var options = BenchCLIOptions(paths: [Self.blog])
        options.iterations = 1
        options.rounds = 1
        let report = try #require(BenchCLI.run(options).report)
        // Deciding each step from the state before it reproduces every expectation of the spec
        // (the spec passes under `rules test`): a second star by the same user is denied.
        let stars = report.operations.filter { $0.test == "bob stars and unstars the post, once and only once" }
        #expect(stars.map(\.allowed) == [true, false, true])
    }

    @Test func compileOnlyReportsEachFile() throws {
        var options = BenchCLIOptions(paths: [Self.blogRules, Self.blogRules])
        options.compileOnly = true
        options.rounds = 1
        options.format = .json
        let output = BenchCLI.run(options)
        #expect(output.exitCode == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect((json["files"] as? [[String: Any]])?.count == 2)
        #expect((json["operations"] as? [Any])?.isEmpty == true)
    }

    @Test func compileOnlyReportsAnUnreadableOrBrokenFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let broken = try dir.write("broken.rules.json", #"{"rules": {".read": "auth.uid ==="}}"#)
        var options = BenchCLIOptions(paths: [broken, dir.url.appendingPathComponent("missing.json").path])
        options.compileOnly = true
        options.rounds = 1
        let output = BenchCLI.run(options)
        #expect(output.exitCode == 2)
        #expect(output.stderr.contains("broken.rules.json: the rules do not compile"))
        #expect(output.stderr.contains("missing.json: cannot read the file"))
    }

    @Test func aMissingSpecIsUnusableInput() {
        var options = BenchCLIOptions(paths: ["/nonexistent/x.test.yaml"])
        options.iterations = 1
        options.rounds = 1
        let output = BenchCLI.run(options)
        #expect(output.exitCode == 2)
        #expect(!output.stderr.isEmpty)
    }

    @Test func textOutputNamesStepsAndWarnsInDebugBuilds() {
        var options = BenchCLIOptions(paths: [Self.blog])
        options.iterations = 1
        options.rounds = 1
        let output = BenchCLI.run(options)
        #expect(output.stdout.contains("step 1: update / as alice"))
        #expect(output.stdout.contains("(denied)"))
        #expect(output.stdout.contains("warning: this is a debug build") == !BenchCLI.isOptimized)
    }
}
