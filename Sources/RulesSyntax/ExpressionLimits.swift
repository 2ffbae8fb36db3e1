/// Bounds on the size of a rule expression the parser accepts.
///
/// Later phases walk the syntax tree recursively (and releasing a tree of class nodes recurses
/// too), so ``maxDepth`` is what keeps them within a thread's stack: no tree the parser returns
/// is deeper than it. The parser itself keeps explicit stacks and does not recurse.
package struct ExpressionLimits: Sendable, Hashable {
    /// The deepest nesting allowed, counting both the syntactic nesting (parentheses, brackets,
    /// call arguments, ternaries) and the height of the resulting tree (every node is a level, so
    /// `1+1+1` and `!!x` are three levels deep).
    package var maxDepth: Int
    /// The longest expression text allowed, in UTF-8 bytes.
    package var maxLength: Int

    /// The limits used unless told otherwise: 200 levels and 10,000,000 bytes.
    package static let `default` = ExpressionLimits(maxDepth: 200, maxLength: 10_000_000)

    /// Creates limits.
    package init(maxDepth: Int, maxLength: Int) {
        self.maxDepth = maxDepth
        self.maxLength = maxLength
    }
}
