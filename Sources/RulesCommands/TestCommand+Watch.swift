import Foundation
import RulesTesting

extension TestCommand {
    /// `rules test --watch`: runs the specs, then again on every save of a spec, a file beside
    /// one, or the `--rules` file, printing the tests that now pass and those that newly fail.
    func watchLoop() -> Int32 {
        var options = cliOptions()
        options.showProgress = false
        var watched = paths + (rules.map { [$0] } ?? [])
        // A spec's rules file is usually beside it: watch the files next to each spec file too.
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                let directory = (path as NSString).deletingLastPathComponent
                let siblings = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
                watched += siblings.filter { name in [".json", ".jsonc", ".yaml", ".yml"].contains { name.hasSuffix($0) } }
                    .map { directory.isEmpty ? $0 : (directory as NSString).appendingPathComponent($0) }
            }
        }
        return watching.loop(paths: watched).run {
            let output = TestCLI.run(options)
            return WatchRun(
                report: output.stdout + output.stderr, problems: Self.watchProblems(output),
                summary: Self.lastLine(output), status: output.exitCode)
        }
    }

    /// Each failing test (`file:line: name`), or each error that stopped the run.
    static func watchProblems(_ output: TestCLIOutput) -> [(key: String, line: String)] {
        guard let result = output.result else {
            return output.stderr.split(separator: "\n").map { (key: String($0), line: String($0)) }
        }
        return result.tests.filter { !$0.passed && !$0.skipped }.map { t in
            let step = t.steps.first { !$0.passed }.map { ": step \($0.index) (\($0.description)) expected \($0.expected), got \($0.actual)" } ?? ""
            return (key: t.file + "\u{0}" + t.name, line: "\(t.file):\(t.line): \(t.name)\(step)")
        }
    }

    /// The report's last line (`N passed, M failed`), or the first error.
    static func lastLine(_ output: TestCLIOutput) -> String {
        let text = output.result == nil ? output.stderr : output.stdout
        return text.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
    }
}
