import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax

/// `rules check --witness-spec DIR`: one `rules test` spec file per security finding with a
/// witness, named `<rules file name>.<code>.<n>.test.yaml`, naming the rules file by a path
/// relative to DIR (absolute when that is not possible).
enum WitnessSpecWriter {
    static func write(_ results: [FileDiagnostics], to directory: String) {
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            FileHandle.standardError.write(Data("error: cannot create \(directory): \(error.localizedDescription)\n".utf8))
            return
        }
        let cwd = fm.currentDirectoryPath
        let dir = LexicalPath.absolute(directory, workingDirectory: cwd)
        for f in results where f.path != "-" && f.file != nil {
            let rules = LexicalPath.absolute(f.path, workingDirectory: cwd)
            let base = rules.split(separator: "/").last.map(String.init) ?? "rules"
            var counts: [LintCode: Int] = [:]
            for lint in f.lints where lint.witness != nil {
                counts[lint.code, default: 0] += 1
                guard let text = WitnessSpec.render(lint, rulesPath: relative(rules, from: dir)) else { continue }
                let name = "\(base).\(lint.code.rawValue).\(counts[lint.code]!).test.yaml"
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: LexicalPath.child(name, of: dir)))
                } catch {
                    FileHandle.standardError.write(Data("error: cannot write \(name): \(error.localizedDescription)\n".utf8))
                }
            }
        }
    }

    /// `path` relative to the directory `from` (both absolute), with `..` as needed.
    static func relative(_ path: String, from: String) -> String {
        let a = path.split(separator: "/"), b = from.split(separator: "/")
        var i = 0
        while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
        return (Array(repeating: "..", count: b.count - i) + a[i...].map(String.init)).joined(separator: "/")
    }
}
