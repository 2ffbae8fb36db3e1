import RulesCompiler
import RulesSyntax

/// What a ``StaticLint`` reads: the checked rule tree, its file, and the analyses several lints
/// share, each computed once, on first use.
package struct LintContext {
    /// The checked rule tree of a file without errors.
    package let tree: RuleNode
    /// The file, with its comments.
    package let file: SourceFile
    /// The top-down walk of the cascade (evaluations, grants, unvalidated writes).
    private(set) lazy var cascade = CascadeAnalysis(tree)

    package init(tree: RuleNode, file: SourceFile) {
        self.tree = tree
        self.file = file
    }
}
