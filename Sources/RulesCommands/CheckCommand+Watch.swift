import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax

extension CheckCommand {
    /// `rules check --watch`: checks, then checks again on every save of a checked file or the
    /// configuration, printing the findings fixed and the new ones.
    func watchLoop(files: [String], config: ProjectConfiguration?, lints: LintConfiguration) throws -> Int32 {
        let terminal = Terminal(color, environment: ProcessInfo.processInfo.environment)
        let reporter = DiagnosticReporter(terminal: terminal)
        let baselinePath = baseline ?? config?.baseline
        let watched = files + (config.map { [$0.path] } ?? []) + (baselinePath.map { [$0] } ?? [])
        return try watching.loop(paths: watched).run {
            // The configuration is read again (its lint levels may have changed); while it does not
            // read, or names an unknown lint, the one from before is used.
            let current = config.flatMap { try? ProjectConfiguration.load($0.path) } ?? config
            let currentLints = (try? lintConfiguration(current)) ?? lints
            let results = try checkAll(files, config: current, lints: currentLints)
            return WatchRun(
                report: reporter.text(results), problems: Self.watchProblems(results),
                summary: reporter.summary(results), status: Self.exitCode(results))
        }
    }

    /// Each finding by a key that does not move when lines above it change (the file, the code,
    /// the message and the text it points at), with its `file:line:col: severity: message [code]`.
    static func watchProblems(_ results: [FileDiagnostics]) -> [(key: String, line: String)] {
        var out: [(key: String, line: String)] = []
        var seen: [String: Int] = [:]
        for f in results {
            if let e = f.readError {
                out.append((key: "\(f.path)\u{0}read\u{0}\(e)", line: "\(f.path): error: \(e)"))
                continue
            }
            guard let file = f.file else { continue }
            for d in f.diagnostics {
                let base = [f.path, d.code.rawValue, d.message, file.text(of: d.range)].joined(separator: "\u{0}")
                // The same finding twice in a file is told apart by its order.
                let n = seen[base, default: 0]
                seen[base] = n + 1
                let at = file.location(of: d.range)
                out.append((key: base + "\u{0}\(n)", line: "\(f.path):\(at.line):\(at.column): \(d.severity): \(d.message) [\(d.code)]"))
            }
        }
        return out
    }
}
