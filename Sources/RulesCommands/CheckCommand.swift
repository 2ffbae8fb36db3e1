import ArgumentParser
import Foundation
import RulesCompiler
import RulesSyntax

/// `rules check FILE...`: the linter that CI runs.
public struct CheckCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check rules files: syntax, types, and the server's deploy-time errors.",
        discussion: """
            Prints every error and warning as file:line:col: severity: message [code], with the \
            source line and a caret under the offending part. Codes are documented in docs/diagnostics.md.
            Exit status: 0 when no file has errors (warnings allowed), 1 when any has, 2 when a file \
            cannot be read.
            """
    )

    @Argument(help: "Rules files to check (directories are searched for *.rules.json and rules.json).")
    public var paths: [String]

    @Option(help: "Output format: text, json, sarif or github.")
    public var format: OutputFormat = .text

    @Option(help: "Colour in text output: auto, always or never.")
    public var color: ColorChoice = .auto

    public init() {}

    public func run() throws {
        let files = RulesFileFinder.expand(paths)
        let results = files.map(Self.check)
        let terminal = Terminal(color, environment: ProcessInfo.processInfo.environment)
        let reporter = DiagnosticReporter(terminal: format == .text ? terminal : .plain)
        print(reporter.report(results, format: format), terminator: "")
        throw ExitCode(Self.exitCode(results))
    }

    /// Reads and checks one file.
    public static func check(_ path: String) -> FileDiagnostics {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            return FileDiagnostics(file: nil, path: path, diagnostics: [], readError: why)
        }
        let file = SourceFile(path: path, bytes: [UInt8](data))
        let result = RulesCompiler.compile(file)
        return FileDiagnostics(file: file, path: path, diagnostics: result.diagnostics)
    }

    /// 2 when any file was unreadable, else 1 when any error, else 0.
    public static func exitCode(_ results: [FileDiagnostics]) -> Int32 {
        if results.contains(where: { $0.readError != nil }) { return 2 }
        if results.contains(where: { $0.diagnostics.containsErrors }) { return 1 }
        return 0
    }
}
