import DatabaseRules
import RulesCompiler
import RulesSyntax

/// Everything `rules check` reports about a file that compiles: the static lints, the lints
/// decided on the access model, and the witness of every security finding, searched with the
/// engine. `Ruleset.lintFindings` (this module) gives the same.
package enum LintRun {
    /// The findings of `file`, compiled as `result` (not compiled again); nothing when it has
    /// errors.
    package static func findings(_ result: CompilationResult, file: SourceFile, configuration: LintConfiguration = .default) -> [LintFinding] {
        guard let tree = result.tree, let compiled = result.ruleset, !result.diagnostics.containsErrors else { return [] }
        return findings(tree: tree, rules: Ruleset(compiled: compiled), file: file, configuration: configuration)
    }

    /// The findings of compiled `rules` whose checked tree is `tree`.
    package static func findings(tree: RuleNode, rules: Ruleset, file: SourceFile, configuration: LintConfiguration = .default) -> [LintFinding] {
        var modelled: [LintFinding] = []
        let lints = Lints.modelLints.filter { configuration.enabled.contains($0.code) }
        if !lints.isEmpty {
            let model = AccessModel.build(rules: rules, tree: tree)
            var context = ThreatContext(model: model, runner: AccessRunner(rules: rules, tree: tree), tree: tree)
            for lint in lints {
                modelled += lint.check(&context)
            }
        }
        let found = Linter.lint(tree, file: file, configuration: configuration, modelled: modelled)
        return WitnessSearch.confirm(found, rules: rules, tree: tree)
    }
}

extension Ruleset {
    /// Rules that compile but are probably wrong, with the security findings decided on the
    /// access model and proven by witnesses: what `rules check` reports (see `docs/lints.md`).
    public func lintFindings(configuration: LintConfiguration = .default) -> [LintFinding] {
        LintRun.findings(tree: compiled.tree, rules: self, file: compiled.file, configuration: configuration)
    }
}
