import ArgumentParser
import DatabaseRules
import Foundation
import RulesCompiler
import RulesSyntax

/// A rules file loaded for `rules access` and `rules diff`: read (within the rules-file limit),
/// compiled, and refused with its diagnostics on standard error when it has errors.
struct AccessInput {
    var file: SourceFile
    var tree: RuleNode
    var rules: Ruleset

    /// Loads `path` (or, with `bytes`, those bytes named `path`). Exit status 2 when it cannot be
    /// read, 1 when it has errors.
    static func load(_ path: String, bytes: [UInt8]? = nil) throws -> AccessInput {
        let checked = bytes.map { CheckCommand.check(bytes: $0, path: path, lints: nil) } ?? CheckCommand.check(path, lints: nil)
        guard let file = checked.file else {
            FileHandle.standardError.write(Data("\(path): error: \(checked.readError ?? "cannot read")\n".utf8))
            throw ExitCode(2)
        }
        let result = RulesCompiler.compile(file)
        guard let tree = result.tree, !result.diagnostics.containsErrors, let rules = try? Ruleset(file: file) else {
            FileHandle.standardError.write(Data(DiagnosticReporter().text([checked]).utf8))
            FileHandle.standardError.write(Data("\(path): the access model is computed only for rules that compile: fix the errors first\n".utf8))
            throw ExitCode(1)
        }
        return AccessInput(file: file, tree: tree, rules: rules)
    }
}
