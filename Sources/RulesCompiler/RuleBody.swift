import RulesSyntax

/// The value of one `.read`, `.write` or `.validate` key after checking.
public enum RuleBody: Sendable {
    /// JSON `true` or `false`.
    case constant(Bool)
    /// An expression string that passed the checks.
    case expression(CheckedExpression)
    /// An expression string with errors (the ruleset is not usable).
    case invalid
}

/// One rule of the rules file: its kind, where it sits, and its body.
public struct Rule: Sendable {
    /// `.read`, `.write` or `.validate`.
    public let kind: RuleKind
    /// The checked body.
    public let body: RuleBody
    /// The range of the rule's value in the file (the string with its quotes, or the literal).
    public let valueRange: SourceRange
    /// The range of the key in the file.
    public let keyRange: SourceRange

    /// Creates a rule.
    public init(kind: RuleKind, body: RuleBody, valueRange: SourceRange, keyRange: SourceRange) {
        self.kind = kind
        self.body = body
        self.valueRange = valueRange
        self.keyRange = keyRange
    }
}
