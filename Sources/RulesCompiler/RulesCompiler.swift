import RulesSyntax

/// The result of compiling a rules file: the ruleset when there are no errors, and every diagnostic.
package struct CompilationResult: Sendable {
    /// The compiled ruleset, or nil when any error was found.
    package let ruleset: CompiledRuleset?
    /// The checked tree (present whenever the document had a `rules` object).
    package let tree: RuleNode?
    /// Errors and warnings, in file order.
    package let diagnostics: [Diagnostic]
}

/// Compiles rules files: read, check, lower.
package enum RulesCompiler {
    /// Compiles the rules in a source file.
    package static func compile(_ file: SourceFile, expressionLimits: ExpressionLimits = .default) -> CompilationResult {
        let sizeDiagnostic = RulesFileLimits.diagnostic(forSize: file.bytes.count)
        if let sizeDiagnostic, sizeDiagnostic.severity == .error {
            return CompilationResult(ruleset: nil, tree: nil, diagnostics: [sizeDiagnostic])
        }
        var loader = RulesDocumentLoader(file: file)
        loader.expressionLimits = expressionLimits
        var (tree, found) = loader.load()
        if let sizeDiagnostic { found.append(sizeDiagnostic) }
        let diagnostics = found.sorted { ($0.range.start, $0.range.end) < ($1.range.start, $1.range.end) }
        guard let tree, !diagnostics.containsErrors else {
            return CompilationResult(ruleset: nil, tree: tree, diagnostics: diagnostics)
        }
        let ruleset = BytecodeCompiler.compile(tree, file: file, diagnostics: diagnostics)
        return CompilationResult(ruleset: ruleset, tree: tree, diagnostics: diagnostics)
    }

    /// Compiles rules given as text.
    package static func compile(source: String, path: String = "database.rules.json") -> CompilationResult {
        compile(SourceFile(path: path, text: source))
    }
}
