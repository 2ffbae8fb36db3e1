extension DiagnosticCode {
    /// A malformed expression: an unexpected token, a missing bracket, an unterminated literal,
    /// a statement separator or a forbidden keyword such as `var`.
    public static let expressionSyntax: DiagnosticCode = "expression-syntax"
    /// An assignment (`=`, `+=`, ...) inside an expression.
    public static let expressionAssignment: DiagnosticCode = "expression-assignment"
    /// A JavaScript operator the rules language lacks (`**`, bitwise operators, `++`, unary `+`).
    public static let expressionOperator: DiagnosticCode = "expression-operator"
    /// An expression nested deeper than ``ExpressionLimits/maxDepth``.
    public static let expressionTooDeep: DiagnosticCode = "expression-too-deep"
    /// An expression longer than ``ExpressionLimits/maxLength``.
    public static let expressionTooLong: DiagnosticCode = "expression-too-long"
}
