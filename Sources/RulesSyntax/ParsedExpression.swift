/// The result of parsing one rule expression.
package struct ParsedExpression: Sendable {
    /// The syntax tree; nil when there is any error.
    package var root: Expression?
    /// The errors found, with ranges in UTF-8 offsets of the expression text. The parser stops at
    /// the first error, so there is at most one.
    package var diagnostics: [Diagnostic]
    /// The number of nodes in ``root``; node ids run from 0 to `nodeCount - 1`. Zero on error.
    package var nodeCount: Int

    /// Creates a result.
    package init(root: Expression?, diagnostics: [Diagnostic], nodeCount: Int) {
        self.root = root
        self.diagnostics = diagnostics
        self.nodeCount = nodeCount
    }
}
