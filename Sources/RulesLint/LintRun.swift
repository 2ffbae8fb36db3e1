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
        run(result, file: file, configuration: configuration).findings
    }

    /// The findings of `file`, compiled as `result` (not compiled again), with the model's figures.
    package static func run(_ result: CompilationResult, file: SourceFile, configuration: LintConfiguration = .default) -> Outcome {
        guard let tree = result.tree, let compiled = result.ruleset, !result.diagnostics.containsErrors else { return Outcome() }
        return run(tree: tree, rules: Ruleset(compiled: compiled), file: file, configuration: configuration)
    }

    /// The findings of compiled `rules` whose checked tree is `tree`.
    package static func findings(tree: RuleNode, rules: Ruleset, file: SourceFile, configuration: LintConfiguration = .default) -> [LintFinding] {
        run(tree: tree, rules: rules, file: file, configuration: configuration).findings
    }

    /// What one file's lint run found, and what its access model left undecided.
    package struct Outcome: Sendable {
        package var findings: [LintFinding] = []
        /// The model's cells the solver neither allowed nor proved `never` within its budget:
        /// the lints decided on the model may miss findings there.
        package var unknownCells = 0
        /// Satisfiability checks made.
        package var solverChecks = 0
    }

    /// The findings of compiled `rules` whose checked tree is `tree`, with the model's figures.
    package static func run(tree: RuleNode, rules: Ruleset, file: SourceFile, configuration: LintConfiguration = .default) -> Outcome {
        var outcome = Outcome()
        var modelled: [LintFinding] = []
        let lints = Lints.modelLints.filter { configuration.enabled.contains($0.code) }
        let widened = Lints.modelWidenedLints.filter { configuration.enabled.contains($0.code) }
        if !lints.isEmpty || !widened.isEmpty {
            let model = AccessModel.build(rules: rules, tree: tree, solver: configuration.solver)
            outcome.unknownCells = model.unknownCells
            outcome.solverChecks = model.solverChecks
            var context = ThreatContext(model: model, runner: AccessRunner(rules: rules, tree: tree), tree: tree)
            for lint in lints {
                modelled += lint.check(&context)
            }
            for lint in widened {
                modelled += lint.widen(&context)
            }
        }
        let found = Linter.lint(tree, file: file, configuration: configuration, modelled: modelled)
        outcome.findings = WitnessSearch.confirm(found, rules: rules, tree: tree)
        return outcome
    }
}

extension Ruleset {
    /// Rules that compile but are probably wrong, with the security findings decided on the
    /// access model and proven by witnesses: what `rules check` reports (see `docs/lints.md`).
    public func lintFindings(configuration: LintConfiguration = .default) -> [LintFinding] {
        LintRun.findings(tree: compiled.tree, rules: self, file: compiled.file, configuration: configuration)
    }
}
