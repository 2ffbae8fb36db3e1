import Foundation
import RulesSyntax
import RulesTesting

/// The output format of `rules bench`.
package enum BenchOutputFormat: String, Sendable, CaseIterable {
    /// Tables for people.
    case text
    /// One JSON object (see ``BenchReport/json()``).
    case json
}

/// What `rules bench` was asked to do.
package struct BenchCLIOptions: Sendable {
    /// Spec files and directories, or rules files with ``compileOnly``.
    package var paths: [String]
    /// `--compile-only`: the paths are rules files; time loading, checking and compiling them.
    package var compileOnly = false
    /// `--suite`: run the built-in suite.
    package var suite = false
    /// `--quick`: shorter rounds, fewer of them.
    package var quick = false
    /// `--format`.
    package var format: BenchOutputFormat = .text
    /// `--iterations N`: fixed operations per round instead of calibrating.
    package var iterations: Int?
    /// `--rounds N`: timed rounds.
    package var rounds: Int?
    /// `--rules FILE`: rules for specs without `rules:`.
    package var rulesPath: String?
    /// `--blog-rules FILE`: the suite's blog rules.
    package var blogRulesPath = "rules-examples/blog/database.rules.json"
    /// `--filter TEXT`: only suite cases whose group or name contains the text.
    package var filter: String?
    /// `--sizes N,N,...`: database sizes (nodes) for the suite.
    package var sizes: [Int]?
    /// `--corpus DIR`: rules files whose compile time the suite measures.
    package var corpusPath: String? = "Tests/Data/corpus"

    /// Creates options for these paths.
    package init(paths: [String]) { self.paths = paths }
}

/// What `rules bench` printed and how it ended.
package struct BenchCLIOutput: Sendable {
    /// Standard output.
    package var stdout: String
    /// Standard error.
    package var stderr: String
    /// 0 measured, 2 unusable input.
    package var exitCode: Int32
    /// The measurements (nil when the input could not be used).
    package var report: BenchReport?
}

/// `rules bench`, as a function: load, measure, report. The command only prints what this returns.
package enum BenchCLI {
    /// True when this code was compiled with optimisation (a release build).
    package static var isOptimized: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }

    /// Checks the options; nil when they can be used, else the message.
    package static func validate(_ options: BenchCLIOptions) -> String? {
        if let n = options.iterations, n < 1 { return "--iterations must be at least 1" }
        if let n = options.rounds, n < 1 { return "--rounds must be at least 1" }
        if let sizes = options.sizes, sizes.isEmpty || sizes.contains(where: { $0 < 12 || $0 > 50_000_000 }) {
            return "--sizes must list database sizes from 12 to 50000000 nodes"
        }
        if options.compileOnly && options.suite { return "--compile-only and --suite cannot be combined" }
        if options.paths.isEmpty && !options.suite {
            return options.compileOnly ? "no rules files given" : "no spec files given (or use --suite)"
        }
        return nil
    }

    /// Runs the whole command; `progress` is told what is measured next.
    package static func run(_ options: BenchCLIOptions, progress: (String) -> Void = { _ in }) -> BenchCLIOutput {
        if let message = validate(options) {
            return BenchCLIOutput(stdout: "", stderr: "error: \(message)\n", exitCode: 2, report: nil)
        }
        var timer = options.quick ? BenchTimer.quick : BenchTimer()
        if let r = options.rounds { timer.rounds = r }
        timer.fixedIterations = options.iterations
        let compileTimer = BenchTimer(roundTime: .zero, rounds: options.rounds ?? (options.quick ? 5 : 15), fixedIterations: 1)
        let bench = SpecBenchmark(timer: timer, compileTimer: compileTimer)
        var report = BenchReport()
        if !isOptimized {
            report.warnings.append("this is a debug build: figures are not representative (build with `swift build -c release` and run .build/release/rules)")
        }
        var errors: [String] = []

        if options.compileOnly {
            for path in options.paths {
                progress("compile \(path)")
                switch bench.compile(path: path) {
                case .success(let t): report.files.append(t)
                case .failure(let e): errors.append(e.message)
                }
            }
        } else if !options.paths.isEmpty {
            var specs: [TestSpec] = []
            var loader = TestSpecLoader(defaultRulesPath: options.rulesPath)
            do {
                for path in try TestSpecLoader.specFiles(in: options.paths) {
                    do { specs.append(try loader.load(path: path)) } catch { errors += error.errors.map(\.description) }
                }
            } catch {
                errors += error.errors.map(\.description)
            }
            if errors.isEmpty {
                var seen = Set<String>()
                for spec in specs where seen.insert(spec.rules.path).inserted {
                    progress("compile \(spec.rules.path)")
                    report.files.append(bench.compile(spec.rules.ruleset.file))
                }
                for spec in specs { report.operations += bench.operations(spec, progress: progress) }
            }
        }
        if errors.isEmpty && options.suite {
            var suite = BenchSuite(
                blogRulesPath: options.blogRulesPath, corpusPath: options.corpusPath, quick: options.quick, timer: timer, compileTimer: compileTimer)
            suite.filter = options.filter
            if let sizes = options.sizes { suite.sizes = sizes }
            do { report.suite = try suite.run(progress: progress) } catch { errors.append(error.message) }
        }
        if !errors.isEmpty {
            return BenchCLIOutput(stdout: "", stderr: errors.map { $0 + "\n" }.joined(), exitCode: 2, report: nil)
        }
        let stdout = options.format == .json ? report.json() : report.text()
        return BenchCLIOutput(stdout: stdout, stderr: "", exitCode: 0, report: report)
    }
}
