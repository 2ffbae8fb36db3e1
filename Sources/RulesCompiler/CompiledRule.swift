import RulesSyntax

/// One rule of a compiled ruleset: a constant, or a slice of the ruleset's instructions.
public struct CompiledRule: Sendable {
    /// `.read`, `.write` or `.validate`.
    public let kind: RuleKind
    /// The rule path, e.g. `/posts/$postId/.write`.
    public let rulePath: String
    /// The result when the rule is JSON `true`/`false` (or an expression folded to a constant).
    public let constant: Bool?
    /// The first instruction (when not constant).
    public let codeStart: Int
    /// One past the last instruction.
    public let codeEnd: Int
    /// Where the rule's value sits in the file.
    public let range: SourceRange
    /// The checked expression, for explanations and coverage (nil for JSON booleans).
    public let expression: CheckedExpression?

    /// Creates a compiled rule.
    public init(kind: RuleKind, rulePath: String, constant: Bool?, codeStart: Int, codeEnd: Int, range: SourceRange, expression: CheckedExpression?) {
        self.kind = kind
        self.rulePath = rulePath
        self.constant = constant
        self.codeStart = codeStart
        self.codeEnd = codeEnd
        self.range = range
        self.expression = expression
    }
}
