import RulesCompiler
import RulesLint
import RulesSyntax

/// Where the server's diagnostics come from: a function from a file to its findings.
///
/// `rules lsp` passes the one `rules check` runs (syntax, types, deploy errors, lints with
/// their witnesses, the project's lint configuration), so the editor and CI report the same
/// things; ``compilerAndLints`` is the same without the witness search or a configuration.
package struct DocumentChecker: Sendable {
    package let check: @Sendable (SourceFile) -> [CheckedDiagnostic]

    package init(_ check: @escaping @Sendable (SourceFile) -> [CheckedDiagnostic]) {
        self.check = check
    }

    /// The compiler's diagnostics, then the default lints when there are no errors.
    package static let compilerAndLints = DocumentChecker { file in
        let result = RulesCompiler.compile(file)
        let lints = Linter.lint(result, file: file).map(\.diagnostic)
        return (result.diagnostics + lints).map { CheckedDiagnostic($0) }
    }
}
