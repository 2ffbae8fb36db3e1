import ArgumentParser
import Foundation
import RulesCompiler
import RulesSyntax

/// `rules check FILE...`: the linter that CI runs.
public struct CheckCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check rules files: syntax, types, the server's deploy-time errors, and lints.",
        discussion: """
            Prints every error and warning as file:line:col: severity: message [code], with the \
            source line and a caret under the offending part. Codes are documented in docs/diagnostics.md; \
            lints (warnings about rules that compile but are probably wrong) in docs/lints.md. Lints run \
            on files without errors.
            Exit status: 0 when no file has errors (warnings allowed, unless --strict), 1 when any has, \
            2 when a file or the baseline cannot be read or a lint code is unknown.
            """
    )

    @Argument(help: "Rules files to check (directories are searched for *.rules.json and rules.json).")
    public var paths: [String]

    @Option(help: "Output format: text, json, sarif or github.")
    public var format: OutputFormat = .text

    @Option(help: "Colour in text output: auto, always or never.")
    public var color: ColorChoice = .auto

    @Flag(help: "Report every warning as an error, so that warnings fail the check.")
    public var strict = false

    @Option(name: .customLong("disable"), help: ArgumentHelp("Turn a lint off (repeatable).", valueName: "code"))
    public var disabled: [String] = []

    @Option(name: .customLong("enable"), help: ArgumentHelp("Turn a lint on (repeatable).", valueName: "code"))
    public var enabled: [String] = []

    @Option(help: ArgumentHelp("Hide the lint findings listed in this JSON file; report only new ones.", valueName: "file"))
    public var baseline: String?

    @Flag(help: "Write every current lint finding to the --baseline file, then report with it applied.")
    public var updateBaseline = false

    public init() {}

    public func validate() throws {
        if updateBaseline && baseline == nil { throw ValidationError("--update-baseline needs --baseline FILE.") }
    }

    public func run() throws {
        let lintConfiguration: LintConfiguration
        do {
            lintConfiguration = try LintConfiguration.from(enable: enabled, disable: disabled)
        } catch {
            Self.fail("error: \(error)")
        }
        let files = RulesFileFinder.expand(paths)
        var results = files.map { Self.check($0, lints: lintConfiguration) }
        if let baseline {
            let accepted: LintBaseline
            if updateBaseline {
                accepted = LintBaseline(findings: results.map { ($0.path, $0.lints) })
                do {
                    try Data(accepted.rendered().utf8).write(to: URL(fileURLWithPath: baseline))
                } catch {
                    Self.fail("error: cannot write the baseline \(baseline): \(error.localizedDescription)")
                }
            } else {
                guard let data = FileManager.default.contents(atPath: baseline) else {
                    Self.fail("error: cannot read the baseline \(baseline)")
                }
                do {
                    accepted = try LintBaseline.parse(String(decoding: data, as: UTF8.self), path: baseline)
                } catch {
                    Self.fail("error: \(baseline): \(error)")
                }
            }
            results = results.map { Self.applying(accepted, to: $0) }
        }
        if strict { results = results.map(Self.strict) }
        let terminal = Terminal(color, environment: ProcessInfo.processInfo.environment)
        let reporter = DiagnosticReporter(terminal: format == .text ? terminal : .plain)
        print(reporter.report(results, format: format), terminator: "")
        throw ExitCode(Self.exitCode(results))
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(2)
    }

    /// Reads, checks and, when there are no errors, lints one file.
    public static func check(_ path: String, lints: LintConfiguration? = .default) -> FileDiagnostics {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            return FileDiagnostics(file: nil, path: path, diagnostics: [], readError: why)
        }
        let file = SourceFile(path: path, bytes: [UInt8](data))
        let result = RulesCompiler.compile(file)
        guard let lints else { return FileDiagnostics(file: file, path: path, diagnostics: result.diagnostics) }
        let found = Linter.lint(result, file: file, configuration: lints)
        var out = FileDiagnostics(file: file, path: path, diagnostics: merge(result.diagnostics, found.map(\.diagnostic)))
        out.lints = found
        return out
    }

    /// The file's findings without the lints that `baseline` accepts.
    public static func applying(_ baseline: LintBaseline, to f: FileDiagnostics) -> FileDiagnostics {
        guard f.file != nil else { return f }
        let kept = baseline.newFindings(f.lints, file: f.path)
        let nonLint = f.diagnostics.filter { d in !f.lints.contains { $0.diagnostic == d } }
        var out = FileDiagnostics(file: f.file, path: f.path, diagnostics: merge(nonLint, kept.map(\.diagnostic)), readError: f.readError)
        out.lints = kept
        return out
    }

    /// Every warning of the file as an error (`--strict`).
    public static func strict(_ f: FileDiagnostics) -> FileDiagnostics {
        var out = FileDiagnostics(
            file: f.file, path: f.path,
            diagnostics: f.diagnostics.map { d in
                var d = d
                if d.severity == .warning { d.severity = .error }
                return d
            }, readError: f.readError)
        out.lints = f.lints
        return out
    }

    /// Two file-ordered lists merged in file order (stable: compiler findings first on ties).
    private static func merge(_ a: [Diagnostic], _ b: [Diagnostic]) -> [Diagnostic] {
        (a.map { ($0, 0) } + b.map { ($0, 1) }).enumerated().sorted { x, y in
            (x.element.0.range.start, x.element.1, x.offset) < (y.element.0.range.start, y.element.1, y.offset)
        }.map(\.element.0)
    }

    /// 2 when any file was unreadable, else 1 when any error, else 0.
    public static func exitCode(_ results: [FileDiagnostics]) -> Int32 {
        if results.contains(where: { $0.readError != nil }) { return 2 }
        if results.contains(where: { $0.diagnostics.containsErrors }) { return 1 }
        return 0
    }
}
