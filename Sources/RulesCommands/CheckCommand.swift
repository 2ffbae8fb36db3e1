import ArgumentParser
import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax

/// `rules check FILE...`: the linter that CI runs.
package struct CheckCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check rules files: syntax, types, the server's deploy-time errors, and lints.",
        discussion: """
            Prints every error and warning as file:line:col: severity: message [code], with the \
            source line and a caret under the offending part. Codes are documented in docs/diagnostics.md; \
            lints (warnings about rules that compile but are probably wrong) in docs/lints.md. Lints run \
            on files without errors.
            With no path, the configuration's rules are checked, else the rules file named by \
            ./firebase.json (database.rules); - reads standard input. The project configuration \
            .database-rules.yaml (lint levels, baseline, rules files) is read from the working \
            directory or the nearest one above it; see docs/configuration.md.
            Exit status: 0 when no file has errors (warnings allowed, unless --strict or --max-warnings), \
            1 when any has (or there are more warnings than --max-warnings), 2 when a file, a directory, \
            the configuration or the baseline cannot be read, a directory holds no rules file, there is \
            nothing to check or a lint code is unknown, 64 when the command line is wrong (an unknown option or value).
            With --watch, the files are checked again on every save (of a checked file, the configuration \
            or the baseline), and each run after the first prints the findings fixed and the new ones \
            (`fixed: ...`, `new: ...`) and the summary; Ctrl-C stops, and the status is the last run's.
            """
    )

    @Argument(help: "Rules files to check; directories are searched for names ending in rules.json or rules.jsonc (skipping node_modules and dot-directories); - reads standard input. Default: the rules file of ./firebase.json.")
    package var paths: [String] = []

    @Option(name: .customLong("stdin-filename"), help: ArgumentHelp("The name to report for standard input (read when the path is - or no path is given).", valueName: "name"))
    package var stdinFilename: String?

    @Flag(help: "Report errors only: warnings are neither printed nor counted.")
    package var quiet = false

    @Option(name: .customLong("max-warnings"), help: ArgumentHelp("Fail (exit 1) when there are more warnings than this.", valueName: "n"))
    package var maxWarnings: Int?

    @Option(name: .customLong("output-file"), help: ArgumentHelp("Write the report (--format) to this file instead of standard output.", valueName: "path"))
    package var outputFile: String?

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write the report in another format to a file, as FORMAT=PATH (repeatable), e.g. sarif=rules.sarif.", valueName: "format=path"))
    package var reports: [String] = []

    @Option(help: "Output format: text, json, sarif or github.")
    package var format: OutputFormat = .text

    @Option(help: "Colour in text output: auto, always or never.")
    package var color: ColorChoice = .auto

    @Flag(help: "Report every warning as an error, so that warnings fail the check.")
    package var strict = false

    @Option(name: .customLong("disable"), help: ArgumentHelp("Turn a lint off (repeatable).", valueName: "code"))
    package var disabled: [String] = []

    @Option(name: .customLong("enable"), help: ArgumentHelp("Turn a lint on (repeatable).", valueName: "code"))
    package var enabled: [String] = []

    @Option(help: ArgumentHelp("Hide the lint findings listed in this JSON file; report only new ones.", valueName: "file"))
    package var baseline: String?

    @Flag(help: "Write every current lint finding to the --baseline file, then report with it applied.")
    package var updateBaseline = false

    @OptionGroup(title: "Configuration")
    package var configuration: ConfigOptions

    @Option(name: .customLong("source-root"), help: ArgumentHelp("The directory SARIF names files relative to (%SRCROOT%). Default: the first checked file's repository (the nearest directory above it holding .git or .database-rules.yaml), else the configuration file's directory, else the working directory's repository root, else the working directory.", valueName: "dir"))
    package var sourceRoot: String?

    @Option(name: .customLong("witness-spec"), help: ArgumentHelp("Write each security finding's witness as a rules test spec file in this directory; each fails until the rules are fixed.", valueName: "dir"))
    package var witnessSpec: String?

    @Option(name: .customLong("docs-url"), help: ArgumentHelp("Base address of the code documentation, for SARIF's helpUri (default: the project's docs on its home page).", valueName: "url"))
    package var docsURL: String?

    @OptionGroup(title: "Watching")
    package var watching: WatchOptions

    @OptionGroup(title: "The solver (the access model's cells that the security lints read)")
    package var solver: SolverOptions

    package init() {}

    package func validate() throws {
        if watching.watch && updateBaseline { throw ValidationError("--watch and --update-baseline cannot be used together.") }
        if watching.watch && (paths.contains("-") || (paths.isEmpty && stdinFilename != nil)) { throw ValidationError("--watch needs files, not standard input.") }
        if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings must be 0 or more.") }
        _ = try extraReports()
    }

    /// The `--report FORMAT=PATH` pairs.
    func extraReports() throws -> [(OutputFormat, String)] {
        try reports.map { spec in
            guard let equals = spec.firstIndex(of: "="), let format = OutputFormat(rawValue: String(spec[..<equals])),
                  spec.index(after: equals) < spec.endIndex
            else {
                throw ValidationError("--report needs FORMAT=PATH with FORMAT one of text, json, sarif, github (got '\(spec)').")
            }
            return (format, String(spec[spec.index(after: equals)...]))
        }
    }

    /// The project configuration in use: `--config`, else the one found upward, unless `--no-config`.
    func projectConfiguration() throws -> ProjectConfiguration? {
        do {
            return try configuration.load()
        } catch {
            throw Self.failure("error: \(error)")
        }
    }

    /// The files to check: the paths, standard input, the configuration's rules, or the rules file
    /// of ./firebase.json.
    private func inputs(_ config: ProjectConfiguration?) throws -> [String] {
        if paths.isEmpty {
            if stdinFilename != nil { return ["-"] }
            if let rules = config?.rules { return try search(rules) }
            switch FirebaseJSON.rulesFile(in: ".") {
            case .found(let file): return [file]
            case .invalid(let why): throw Self.failure("error: \(why)")
            case .missing:
                throw Self.failure(
                    "error: nothing to check: there is no firebase.json here; name the rules file or a directory to search, "
                        + "e.g. `rules check database.rules.json` or `rules check .` (or - for standard input)")
            case .absent:
                throw Self.failure("error: nothing to check: give rules files or directories (or - for standard input); ./firebase.json names no database rules file")
            }
        }
        return try search(paths)
    }

    private func search(_ paths: [String]) throws -> [String] {
        let search = RulesFileFinder.search(paths)
        if !search.problems.isEmpty {
            throw Self.failure(search.problems.map { "error: \($0)" }.joined(separator: "\n"))
        }
        return search.files
    }

    /// The lint configuration: the project's levels with `--enable` and `--disable` applied.
    func lintConfiguration(_ config: ProjectConfiguration?) throws -> LintConfiguration {
        var c = try LintConfiguration.from(enable: enabled, disable: disabled, base: config?.lintConfiguration() ?? .default)
        c.solver = solver.budget(milliseconds: Self.solverMilliseconds, seconds: Self.solverSeconds, threatsOnly: true)
        return c
    }

    /// The solver's default budget in `rules check`: per satisfiability check, and per file.
    package static let solverMilliseconds: UInt32 = 250
    package static let solverSeconds = 2.0

    /// Checks the files, with the baseline, `--strict` and `--quiet` applied.
    func checkAll(_ files: [String], config: ProjectConfiguration?, lints lintConfiguration: LintConfiguration) throws -> [FileDiagnostics] {
        let baseline = self.baseline ?? config?.baseline
        let progress = CheckProgressLine()
        var results = files.enumerated().map { index, path in
            progress.begin(path == "-" ? stdinFilename ?? "<stdin>" : path, index: index, count: files.count)
            defer { progress.end() }
            return path == "-" ? Self.checkStandardInput(named: stdinFilename ?? "<stdin>", lints: lintConfiguration) : Self.check(path, lints: lintConfiguration)
        }
        if let baseline {
            let accepted: LintBaseline
            if updateBaseline {
                // Entries of files this run did not check are kept.
                let fresh = LintBaseline(findings: results.map { (Self.canonicalPath($0.path), $0.lints) })
                let previous = FileManager.default.contents(atPath: baseline).flatMap {
                    try? LintBaseline.parse(String(decoding: $0, as: UTF8.self), path: baseline).mappingFiles { Self.canonicalPath($0) }
                }
                accepted = previous?.updated(with: fresh, forFiles: Set(files.map { Self.canonicalPath($0) })) ?? fresh
                do {
                    try Data(accepted.rendered().utf8).write(to: URL(fileURLWithPath: baseline))
                } catch {
                    throw Self.failure("error: cannot write the baseline \(baseline): \(error.localizedDescription)")
                }
            } else if self.baseline == nil && !FileManager.default.fileExists(atPath: baseline) {
                // A baseline named by the configuration file may not exist yet: nothing is accepted.
                accepted = LintBaseline(findings: [])
            } else {
                guard let data = FileManager.default.contents(atPath: baseline) else {
                    throw Self.failure("error: cannot read the baseline \(baseline)")
                }
                do {
                    accepted = try LintBaseline.parse(String(decoding: data, as: UTF8.self), path: baseline).mappingFiles { Self.canonicalPath($0) }
                } catch {
                    throw Self.failure("error: \(baseline): \(error)")
                }
            }
            results = results.map { Self.applying(accepted, to: $0) }
        }
        if strict { results = results.map(Self.strict) }
        if quiet { results = results.map(Self.errorsOnly) }
        return results
    }

    package func run() throws {
        let config = try projectConfiguration()
        let lintConfiguration: LintConfiguration
        do {
            lintConfiguration = try self.lintConfiguration(config)
        } catch {
            throw Self.failure("error: \(error)")
        }
        if updateBaseline && (baseline ?? config?.baseline) == nil {
            throw Self.failure("error: --update-baseline needs --baseline FILE (or baseline: in the configuration file)")
        }
        let files = try inputs(config)
        if watching.watch { throw ExitCode(try watchLoop(files: files, config: config, lints: lintConfiguration)) }
        let results = try checkAll(files, config: config, lints: lintConfiguration)
        let terminal = Terminal(color, environment: ProcessInfo.processInfo.environment)
        let onTerminal = format == .text && outputFile == nil
        let root = SourceRoot.find(explicit: sourceRoot, configurationDirectory: config?.directory, files: files)
        let docs = docsURL ?? config?.documentation ?? RulesTool.documentationBase
        let report = DiagnosticReporter(
            terminal: onTerminal ? terminal : .plain, sourceRoot: root, documentationBase: docs,
            lineWidth: onTerminal ? Terminal.width(environment: ProcessInfo.processInfo.environment) : nil
        ).report(results, format: format)
        if let outputFile {
            try Self.write(report, to: outputFile)
        } else {
            print(report, terminator: "")
        }
        for (extra, path) in (try? extraReports()) ?? [] {
            try Self.write(DiagnosticReporter(terminal: .plain, sourceRoot: root, documentationBase: docs).report(results, format: extra), to: path)
        }
        if let witnessSpec { WitnessSpecWriter.write(results, to: witnessSpec) }
        for f in results where f.unknownCells > 0 {
            FileHandle.standardError.write(Data("rules check: \(f.path): \(f.unknownCells) of the access model's questions are unknown within the solver's budget (--solver-budget, --solver-timeout); the security lints may miss findings there\n".utf8))
        }
        var status = Self.exitCode(results)
        let warnings = results.reduce(0) { $0 + $1.diagnostics.filter { $0.severity == .warning }.count }
        if status == 0, let maxWarnings, warnings > maxWarnings {
            FileHandle.standardError.write(Data("rules check: \(warnings) warnings, more than --max-warnings \(maxWarnings)\n".utf8))
            status = 1
        }
        throw ExitCode(status)
    }

    /// A path as the report and the baseline name it: relative to the working directory when it
    /// is inside it (`./a.json`, `a.json` and `/work/a.json` are one file), without `.` segments
    /// or doubled slashes.
    static func canonicalPath(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            parts.append(part)
        }
        let joined = (absolute ? "/" : "") + parts.joined(separator: "/")
        let base = workingDirectory.hasSuffix("/") ? String(workingDirectory.dropLast()) : workingDirectory
        if absolute, !base.isEmpty, joined.hasPrefix(base + "/") { return String(joined.dropFirst(base.count + 1)) }
        return joined.isEmpty ? path : joined
    }

    private static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw failure("error: cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Checks the rules on standard input, reported as `name`. At most the rules-file limit
    /// (``RulesFileLimits/maxBytes``) is read: more is the `rules-file-too-large` error, as for a
    /// file, and the rest of the input is not read.
    package static func checkStandardInput(named name: String, lints: LintConfiguration? = .default) -> FileDiagnostics {
        check(descriptor: FileHandle.standardInput.fileDescriptor, named: name, lints: lints)
    }

    /// Checks the rules read from an open descriptor (a pipe, standard input), reported as `name`.
    static func check(descriptor: Int32, named name: String, lints: LintConfiguration? = .default) -> FileDiagnostics {
        do {
            return checked(try BoundedInput.read(descriptor: descriptor, limit: RulesFileLimits.maxBytes), path: name, lints: lints)
        } catch {
            return FileDiagnostics(file: nil, path: name, diagnostics: [], readError: error.reason)
        }
    }

    /// Checks what was read: the `rules-file-too-large` error alone when the input is over the
    /// limit (its first bytes kept, to show where), else the rules.
    private static func checked(_ read: BoundedInput.Read, path: String, lints: LintConfiguration?) -> FileDiagnostics {
        guard read.overLimit else { return check(bytes: read.bytes, path: path, lints: lints) }
        let size = read.size.map { "\($0) bytes" } ?? "more than \(RulesFileLimits.maxBytes) bytes"
        let diagnostic = Diagnostic.error(
            .rulesFileTooLarge, "The rules file is too large (\(size); the limit is \(RulesFileLimits.maxBytes)).", at: .at(0))
        return FileDiagnostics(file: SourceFile(path: path, bytes: Array(read.bytes.prefix(4096))), path: path, diagnostics: [diagnostic])
    }

    /// The file's findings without its warnings (`--quiet`).
    package static func errorsOnly(_ f: FileDiagnostics) -> FileDiagnostics {
        var out = FileDiagnostics(file: f.file, path: f.path, diagnostics: f.diagnostics.filter { $0.severity != .warning }, readError: f.readError)
        out.lints = f.lints.filter { $0.diagnostic.severity != .warning }
        return out
    }

    /// Says what stops the command on standard error; the exit status (2) to throw.
    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(2)
    }

    /// Reads, checks and, when there are no errors, lints one file.
    /// At most the rules-file limit is read (a larger file, or a device such as /dev/zero, is the
    /// `rules-file-too-large` error).
    package static func check(_ path: String, lints: LintConfiguration? = .default) -> FileDiagnostics {
        do {
            return checked(try BoundedInput.read(path: path, limit: RulesFileLimits.maxBytes), path: path, lints: lints)
        } catch {
            return FileDiagnostics(file: nil, path: path, diagnostics: [], readError: error.reason)
        }
    }

    /// Checks and, when there are no errors, lints rules given as bytes.
    package static func check(bytes: [UInt8], path: String, lints: LintConfiguration? = .default) -> FileDiagnostics {
        let file = SourceFile(path: path, bytes: bytes)
        let result = RulesCompiler.compile(file)
        guard let lints else { return FileDiagnostics(file: file, path: path, diagnostics: result.diagnostics) }
        if result.diagnostics.containsErrors {
            var out = FileDiagnostics(file: file, path: path, diagnostics: result.diagnostics)
            out.lintsSkipped = true
            return out
        }
        let outcome = LintRun.run(result, file: file, configuration: lints)
        var out = FileDiagnostics(file: file, path: path, diagnostics: merge(result.diagnostics, outcome.findings.map(\.diagnostic)))
        out.lints = outcome.findings
        out.unknownCells = outcome.unknownCells
        return out
    }

    /// The file's findings without the lints that `baseline` accepts.
    package static func applying(_ baseline: LintBaseline, to f: FileDiagnostics) -> FileDiagnostics {
        guard f.file != nil else { return f }
        let kept = baseline.newFindings(f.lints, file: canonicalPath(f.path))
        let nonLint = f.diagnostics.filter { d in !f.lints.contains { $0.diagnostic == d } }
        var out = FileDiagnostics(file: f.file, path: f.path, diagnostics: merge(nonLint, kept.map(\.diagnostic)), readError: f.readError)
        out.lints = kept
        out.lintsSkipped = f.lintsSkipped
        out.unknownCells = f.unknownCells
        return out
    }

    /// Every warning of the file as an error (`--strict`).
    package static func strict(_ f: FileDiagnostics) -> FileDiagnostics {
        var out = FileDiagnostics(
            file: f.file, path: f.path,
            diagnostics: f.diagnostics.map { d in
                var d = d
                if d.severity == .warning { d.severity = .error }
                return d
            }, readError: f.readError)
        out.lints = f.lints
        out.lintsSkipped = f.lintsSkipped
        out.unknownCells = f.unknownCells
        return out
    }

    /// Two file-ordered lists merged in file order (stable: compiler findings first on ties).
    private static func merge(_ a: [Diagnostic], _ b: [Diagnostic]) -> [Diagnostic] {
        (a.map { ($0, 0) } + b.map { ($0, 1) }).enumerated().sorted { x, y in
            (x.element.0.range.start, x.element.1, x.offset) < (y.element.0.range.start, y.element.1, y.offset)
        }.map(\.element.0)
    }

    /// 2 when any file was unreadable, else 1 when any error, else 0.
    package static func exitCode(_ results: [FileDiagnostics]) -> Int32 {
        if results.contains(where: { $0.readError != nil }) { return 2 }
        if results.contains(where: { $0.diagnostics.containsErrors }) { return 1 }
        return 0
    }
}
