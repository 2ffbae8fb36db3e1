import RulesCompiler
import RulesLint
import RulesSyntax

/// Where the server's diagnostics come from: a function from a file to its findings.
///
/// `rules lsp` passes the compiler and the static lints at once, then as its `model` the one
/// `rules check` runs (syntax, types, deploy errors, lints with their witnesses, the project's
/// lint configuration), so the editor and CI report the same things in the end;
/// ``compilerAndLints`` is the first part without a configuration.
package struct DocumentChecker: Sendable {
    /// The findings published at once: what the editor waits for.
    package let check: @Sendable (SourceFile) -> [CheckedDiagnostic]
    /// When set, every finding, computed in the background after `check`'s are published and
    /// published in their place when ready (``ModelJob``): the lints decided on the access model.
    package let model: (@Sendable (SourceFile) -> [CheckedDiagnostic])?

    package init(_ check: @escaping @Sendable (SourceFile) -> [CheckedDiagnostic], model: (@Sendable (SourceFile) -> [CheckedDiagnostic])? = nil) {
        self.check = check
        self.model = model
    }

    /// The compiler's diagnostics, then the default lints when there are no errors.
    package static let compilerAndLints = DocumentChecker { file in
        let result = RulesCompiler.compile(file)
        let lints = Linter.lint(result, file: file).map(\.diagnostic)
        return (result.diagnostics + lints).map { CheckedDiagnostic($0) }
    }
}
