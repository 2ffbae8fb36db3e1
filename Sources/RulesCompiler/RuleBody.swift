import RulesSyntax

/// The value of one `.read`, `.write` or `.validate` key after checking.
package enum RuleBody: Sendable {
    /// JSON `true` or `false`.
    case constant(Bool)
    /// An expression string that passed the checks.
    case expression(CheckedExpression)
    /// An expression string with errors (the ruleset is not usable).
    case invalid
}

/// One rule of the rules file: its kind, where it sits, and its body.
package struct Rule: Sendable {
    /// `.read`, `.write` or `.validate`.
    package let kind: RuleKind
    /// The checked body.
    package let body: RuleBody
    /// The range of the rule's value in the file (the string with its quotes, or the literal).
    package let valueRange: SourceRange
    /// The range of the key in the file.
    package let keyRange: SourceRange

    /// Creates a rule.
    package init(kind: RuleKind, body: RuleBody, valueRange: SourceRange, keyRange: SourceRange) {
        self.kind = kind
        self.body = body
        self.valueRange = valueRange
        self.keyRange = keyRange
    }
}
