import ArgumentParser
import Foundation
import RulesTesting
import Synchronization

extension TestOutputFormat: ExpressibleByArgument {}

/// `rules test PATH...`: runs spec files (YAML, JSON or targaryen-style) against rules.
package struct TestCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run rules tests: spec files of reads and writes with the expected allow or deny.",
        discussion: """
            Spec files are *.test.yaml, *.test.yml or *.test.json (directories are searched \
            recursively); targaryen-style JSON ({root, users, tests: {path: {canRead, ...}}}) runs \
            against --rules FILE. The last line of the text output is `N passed, M failed`, counting \
            steps. Exit status: 0 all passed, 1 any failed (or coverage below --min-coverage), \
            2 a spec or rules file cannot be used (reported as file:line:col: error: message).
            With --watch, the tests run again on every save of a spec path, the --rules file or a file \
            beside a spec file; each run after the first prints the tests that now pass (`fixed: ...`) \
            and those that newly fail (`new: ...`), then the last line; Ctrl-C stops, and the status is \
            the last run's.
            """
    )

    @Argument(help: "Spec files or directories.")
    package var paths: [String] = []

    @Option(help: "Rules file for specs without `rules:` and for targaryen-style specs.")
    package var rules: String?

    @Option(help: "Run only tests whose name contains this text.")
    package var filter: String?

    @Option(help: "Output format: text or json.")
    package var format: TestOutputFormat = .text

    @Option(help: "Write a JUnit XML report to this path.")
    package var junit: String?

    @Flag(help: "Print rule coverage: rules evaluated and outcome branches seen, per rules file.")
    package var coverage = false

    @Option(name: .customLong("coverage-json"), help: "Write the full coverage data as JSON to this path.")
    package var coverageJSON: String?

    @Option(name: .customLong("coverage-lcov"), help: "Write coverage as an lcov tracefile to this path.")
    package var coverageLCOV: String?

    @Option(name: .customLong("min-coverage"), help: "Fail when fewer than N percent of the rules were evaluated.")
    package var minCoverage: Double?

    @Option(help: "Colour in text output: auto, always or never.")
    package var color: ColorChoice = .auto

    @OptionGroup(title: "Watching")
    package var watching: WatchOptions

    package init() {}

    /// The options of one run.
    func cliOptions() -> TestCLIOptions {
        var options = TestCLIOptions(paths: paths)
        options.rulesPath = rules
        options.filter = filter
        options.format = format
        options.junitPath = junit
        options.coverage = coverage
        options.coverageJSONPath = coverageJSON
        options.coverageLCOVPath = coverageLCOV
        options.minCoverage = minCoverage
        options.colors = Terminal(color, environment: ProcessInfo.processInfo.environment).colors
        options.showProgress = isatty(STDERR_FILENO) == 1
        return options
    }

    package func run() throws {
        if watching.watch { throw ExitCode(watchLoop()) }
        let output = TestCLI.run(cliOptions())
        print(output.stdout, terminator: "")
        if !output.stderr.isEmpty {
            FileHandle.standardError.write(Data(output.stderr.utf8))
        }
        // Everything the run loaded is let go by the process's exit, not freed piece by piece.
        Self.lastOutput.withLock { $0 = output }
        throw ExitCode(output.exitCode)
    }

    /// The last run's output, kept until the process exits (or the next run).
    private static let lastOutput = Mutex<TestCLIOutput?>(nil)
}
