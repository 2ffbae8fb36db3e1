import Foundation
import RulesCoverage
import RulesRuntime
import RulesSyntax

/// The output format of `rules test`.
package enum TestOutputFormat: String, Sendable, CaseIterable {
    /// One line per test, details for failures, `N passed, M failed` last.
    case text
    /// One JSON object (see ``JSONReporter``).
    case json
}

/// What `rules test` was asked to do.
package struct TestCLIOptions: Sendable {
    /// Spec files and directories.
    package var paths: [String]
    /// `--rules FILE`: rules for specs without `rules:` and for targaryen specs.
    package var rulesPath: String?
    /// `--filter TEXT`: run only tests whose name contains the text.
    package var filter: String?
    /// `--format`.
    package var format: TestOutputFormat = .text
    /// `--junit PATH`.
    package var junitPath: String?
    /// `--coverage`: print the coverage summary.
    package var coverage = false
    /// `--coverage-json PATH`.
    package var coverageJSONPath: String?
    /// `--coverage-lcov PATH`.
    package var coverageLCOVPath: String?
    /// `--min-coverage N`: fail below N percent of rules evaluated.
    package var minCoverage: Double?
    /// Colour the text output.
    package var colors = false
    /// Show test times in the text output.
    package var showTimes = true
    /// The run's clock (ms); the current time when nil.
    package var startTime: Double?
    /// Show progress on standard error (`N/M tests`, updated in place) once a run has taken
    /// more than a second; the command turns it on when standard error is a terminal.
    package var showProgress = false

    /// Creates options for these paths.
    package init(paths: [String]) { self.paths = paths }

    /// True when anything needs coverage data.
    package var wantsCoverage: Bool {
        coverage || coverageJSONPath != nil || coverageLCOVPath != nil || minCoverage != nil
    }
}

/// What `rules test` printed and how it ended.
package struct TestCLIOutput: Sendable {
    /// Standard output.
    package var stdout: String
    /// Standard error.
    package var stderr: String
    /// 0 all passed, 1 any failed (or coverage below the minimum), 2 unusable input.
    package var exitCode: Int32
    /// The run's results (nil when the input could not be loaded).
    package var result: TestRunResult?
    /// The coverage, when collected.
    package var coverage: CoverageCollector?
    /// What the run loaded and built, kept here so that a command that exits right after
    /// printing need not free it first: freeing a large spec's data and starting tree takes
    /// about as long as building them.
    package var loaded: Loaded?

    /// The specs a run loaded, and the last spec's starting tree.
    package struct Loaded: Sendable {
        let specs: [TestSpec]
        let tree: DataNode?
    }
}

/// `rules test`, as a function: load, run, report. The command only prints what this returns.
package enum TestCLI {
    /// Runs the whole command.
    package static func run(_ options: TestCLIOptions) -> TestCLIOutput {
        var errors: [TestSpecError] = []
        var specs: [TestSpec] = []
        var loader = TestSpecLoader(defaultRulesPath: options.rulesPath)
        do {
            for path in try TestSpecLoader.specFiles(in: options.paths) {
                do { specs.append(try loader.load(path: path)) } catch { errors += error.errors }
            }
        } catch {
            errors += error.errors
        }
        if options.paths.isEmpty {
            errors.append(TestSpecError(file: ".", location: .init(line: 1, column: 1), message: "no spec files given"))
        }
        if !errors.isEmpty {
            var stderr = errors.map { $0.description + "\n" }.joined()
            // CI still gets a JUnit file, with the load errors as errored test cases.
            if let path = options.junitPath {
                if let problem = Self.write(JUnitReporter.report(TestRunResult(tests: []), loadErrors: errors), to: path) { stderr += problem }
            }
            return TestCLIOutput(stdout: "", stderr: stderr, exitCode: 2)
        }

        let start = options.startTime ?? (Date().timeIntervalSince1970 * 1000).rounded(.down)
        var runner = TestRunner(filter: options.filter, startTime: start, coverage: options.wantsCoverage ? CoverageCollector() : nil)
        if options.showProgress {
            let began = ContinuousClock.now
            var shown = began
            var showing = false
            runner.progress = { done, total in
                let now = ContinuousClock.now
                let last = done == total
                guard (now - began > .seconds(1) && now - shown > .milliseconds(200)) || (last && showing) else { return }
                shown = now
                showing = true
                // Carriage return and erase-line: the line is rewritten in place, then cleared.
                let line = last ? "\r\u{1B}[K" : "\r\u{1B}[Krules test: \(done)/\(total) tests"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        let result = runner.run(specs)
        let coverage = runner.coverage

        var stdout = ""
        var stderr = ""
        var exit: Int32 = result.allPassed ? 0 : 1
        let human = HumanReporter(colors: options.colors, showTimes: options.showTimes)
        switch options.format {
        case .text:
            stdout += human.body(result)
            if options.coverage, let coverage { stdout += CoverageReporter.text(coverage) }
        case .json:
            stdout += JSONReporter.report(result)
        }

        // Each report is made only when a path asks for it.
        func write(_ text: @autoclosure () -> String, to path: String?) {
            guard let path else { return }
            if let problem = Self.write(text(), to: path) {
                stderr += problem
                exit = 2
            }
        }
        write(JUnitReporter.report(result), to: options.junitPath)
        if let coverage {
            write(CoverageReporter.json(coverage), to: options.coverageJSONPath)
            write(CoverageReporter.lcov(coverage), to: options.coverageLCOVPath)
            if let min = options.minCoverage, coverage.percent < min {
                stderr += "error: rule coverage \(CoverageReporter.percent(coverage.percent)) is below the minimum of \(JSONText.double(min).rendered())%\n"
                if exit == 0 { exit = 1 }
            }
        }
        if options.format == .text { stdout += human.summary(result) + "\n" }
        return TestCLIOutput(stdout: stdout, stderr: stderr, exitCode: exit, result: result, coverage: coverage,
                             loaded: TestCLIOutput.Loaded(specs: specs, tree: runner.lastSpecTree))
    }

    /// Writes a report next to `path` and renames it over it, so readers never see half a report
    /// (Foundation's own atomic write leaves a directory behind in the temporary directory on
    /// Linux). Returns the error line when it cannot.
    static func write(_ text: String, to path: String) -> String? {
        do {
            let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if rename(temporary, path) != 0 {
                try? FileManager.default.removeItem(atPath: temporary)
                throw CocoaError(.fileWriteUnknown)
            }
            return nil
        } catch {
            return "\(path):1:1: error: cannot write the file: \(error.localizedDescription)\n"
        }
    }
}
