import ArgumentParser
import Foundation
import RulesBenchmark

extension BenchOutputFormat: ExpressibleByArgument {}

/// `rules bench SPEC...`: how long each step of each test takes to decide, in ns per operation.
package struct BenchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure what rules cost: ns per decision for each step of spec files, or compile times.",
        discussion: """
            Each step of each test is decided many times from the state before the step (a write \
            is decided and its new tree built, but not applied), after a warm-up; the figure is \
            the median over the rounds, with the interquartile range as a percentage. Use a release \
            build (`swift build -c release`, then .build/release/rules bench). --compile-only times \
            loading, checking and compiling rules files. --suite runs the built-in suite (blog \
            example on databases up to 10^6 nodes, big writes, regexes, parent() chains, a \
            hand-written Swift baseline, allocations per decision).
            """
    )

    @Argument(help: "Spec files or directories (rules files with --compile-only).")
    package var paths: [String] = []

    @Flag(name: .customLong("compile-only"), help: "Time loading, checking and compiling the given rules files.")
    package var compileOnly = false

    @Flag(help: "Run the built-in benchmark suite.")
    package var suite = false

    @Flag(help: "Shorter and fewer rounds.")
    package var quick = false

    @Option(help: "Output format: text or json.")
    package var format: BenchOutputFormat = .text

    @Option(help: "Operations per round (default: calibrated to the round time).")
    package var iterations: Int?

    @Option(help: "Timed rounds per figure.")
    package var rounds: Int?

    @Option(help: "Run only the suite cases whose group or name contains this text.")
    package var filter: String?

    @Option(help: "Database sizes (nodes) for the suite, comma-separated, e.g. 1000,100000,1000000.")
    package var sizes: String?

    @Option(help: "Rules file for specs without `rules:`.")
    package var rules: String?

    @Option(name: .customLong("blog-rules"), help: "The blog rules the suite uses.")
    package var blogRules: String = "rules-examples/blog/database.rules.json"

    @Option(help: "A directory of rules files whose compile time the suite measures (relative to the working directory; the suite skips it when it does not exist).")
    package var corpus: String = "Tests/Data/corpus"

    @Option(name: .customLong("write-generated-rules"), help: "Write the suite's generated 256 KB rules file to this path and stop (for timing other commands on it).")
    package var writeGeneratedRules: String?

    package init() {}

    /// The options these arguments describe.
    package var options: BenchCLIOptions {
        var o = BenchCLIOptions(paths: paths)
        o.compileOnly = compileOnly
        o.suite = suite
        o.quick = quick
        o.format = format
        o.iterations = iterations
        o.rounds = rounds
        o.filter = filter
        // An unparsable list becomes an empty one, which validation reports.
        o.sizes = sizes.map { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            return parts.contains(nil) ? [] : parts.compactMap { $0 }
        }
        o.rulesPath = rules
        o.blogRulesPath = blogRules
        o.corpusPath = FileManager.default.fileExists(atPath: corpus) ? corpus : nil
        return o
    }

    package func run() throws {
        if let path = writeGeneratedRules {
            do { try Data(SuiteRules.generated(bytes: 256 * 1024).utf8).write(to: URL(fileURLWithPath: path)) } catch {
                FileHandle.standardError.write(Data("error: cannot write \(path): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
            return
        }
        let interactive = isatty(2) != 0
        let output = BenchCLI.run(options) { label in
            // Progress on the terminal only, on one line that is rewritten.
            guard interactive else { return }
            let line = label.count > 100 ? String(label.prefix(97)) + "..." : label
            FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        }
        if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        print(output.stdout, terminator: "")
        if !output.stderr.isEmpty { FileHandle.standardError.write(Data(output.stderr.utf8)) }
        if output.exitCode != 0 { throw ExitCode(output.exitCode) }
    }
}
