import RulesSyntax

/// One rule of a compiled ruleset: a constant, or a slice of the ruleset's instructions.
package struct CompiledRule: Sendable {
    /// `.read`, `.write` or `.validate`.
    package let kind: RuleKind
    /// The rule path, e.g. `/posts/$postId/.write`.
    package let rulePath: String
    /// The result when the rule is JSON `true`/`false` (or an expression folded to a constant).
    package let constant: Bool?
    /// The first instruction (when not constant).
    package let codeStart: Int
    /// One past the last instruction.
    package let codeEnd: Int
    /// Where the rule's value sits in the file.
    package let range: SourceRange
    /// The checked expression, for explanations and coverage (nil for JSON booleans).
    package let expression: CheckedExpression?

    /// Creates a compiled rule.
    package init(kind: RuleKind, rulePath: String, constant: Bool?, codeStart: Int, codeEnd: Int, range: SourceRange, expression: CheckedExpression?) {
        self.kind = kind
        self.rulePath = rulePath
        self.constant = constant
        self.codeStart = codeStart
        self.codeEnd = codeEnd
        self.range = range
        self.expression = expression
    }
}
