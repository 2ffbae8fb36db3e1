import ArgumentParser
import Foundation
import RulesCompiler
import RulesLanguageServer
import RulesLint
import RulesSyntax

/// `rules lsp`: the language server for editors, over standard input and output.
package struct LSPCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server for editors (Language Server Protocol over standard input and output).",
        discussion: """
            Speaks JSON-RPC with Content-Length framing on standard input and output; an editor \
            starts it (see docs/lsp.md). Diagnostics are those of `rules check` (syntax, types, \
            deploy errors, lints with their witnesses): the compiler's and the static lints' at \
            once, the access model's when ready, computed in the background; with the lint levels of the \
            .database-rules.yaml nearest each file; hover, completion, go to definition of a \
            $variable, the outline, quick fixes and formatting work on any *.rules.json file. \
            Exit status: 0 after the client's shutdown and exit, 1 when the input ends without them.
            """
    )

    @Flag(name: .customLong("stdio"), help: "Use standard input and output (the default and only transport; accepted because editors pass it).")
    package var stdio = false

    @Flag(name: .customLong("no-config"), help: "Do not read project configuration files (every lint at its default level).")
    package var noConfig = false

    package init() {}

    package func run() throws {
        // A client that goes away mid-answer ends the session at the end of its input, not by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let server = LanguageServer(version: RulesTool.version, checker: Self.checker(readConfiguration: !noConfig))
        throw ExitCode(ServerConnection(server: server).run())
    }

    /// The compiler's diagnostics and the static lints at once, then the findings of
    /// `rules check` for the document (the access model's, the solver's within `rules check`'s
    /// budget, each lint's witness as notes), computed off the thread that answers the editor.
    package static func checker(readConfiguration: Bool) -> DocumentChecker {
        DocumentChecker({ file in
            let lints = readConfiguration ? lintConfiguration(near: file.path) : .default
            let result = RulesCompiler.compile(file)
            let found = Linter.lint(result, file: file, configuration: lints).map(\.diagnostic)
            return (result.diagnostics + found).map { CheckedDiagnostic($0) }
        }, model: model(readConfiguration: readConfiguration))
    }

    /// The findings of `rules check` for a document: its diagnostics, with each lint's witness
    /// as notes.
    package static func model(readConfiguration: Bool) -> @Sendable (SourceFile) -> [CheckedDiagnostic] {
        { file in
            var lints = readConfiguration ? lintConfiguration(near: file.path) : .default
            lints.solver = AccessModel.SolverBudget(milliseconds: CheckCommand.solverMilliseconds, seconds: CheckCommand.solverSeconds, threatsOnly: true)
            let result = CheckCommand.check(bytes: file.bytes, path: file.path, lints: lints)
            return result.diagnostics.map { d in
                guard let lint = DiagnosticReporter.lint(for: d, in: result), lint.witnessStatus != nil else { return CheckedDiagnostic(d) }
                guard let witness = lint.witness else {
                    return CheckedDiagnostic(d, notes: ["witness: unconfirmed (no counterexample the engine allows was found)"])
                }
                let lines = witness.lines
                return CheckedDiagnostic(d, notes: ["witness (confirmed): " + lines[0]] + lines.dropFirst())
            }
        }
    }

    /// The lint levels of the configuration file nearest `path`; the defaults when there is none
    /// or it cannot be read.
    static func lintConfiguration(near path: String) -> LintConfiguration {
        let directory = (path as NSString).deletingLastPathComponent
        guard path.hasPrefix("/"), let found = ProjectConfiguration.discover(from: directory),
            let config = try? ProjectConfiguration.load(LexicalPath.child(found, of: directory))
        else { return .default }
        return config.lintConfiguration()
    }
}
