extension DiagnosticCode {
    /// A malformed expression: an unexpected token, a missing bracket, an unterminated literal,
    /// a statement separator or a forbidden keyword such as `var`.
    package static let expressionSyntax: DiagnosticCode = "expression-syntax"
    /// An assignment (`=`, `+=`, ...) inside an expression.
    package static let expressionAssignment: DiagnosticCode = "expression-assignment"
    /// A JavaScript operator the rules language lacks (`**`, bitwise operators, `++`, unary `+`).
    package static let expressionOperator: DiagnosticCode = "expression-operator"
    /// An expression nested deeper than ``ExpressionLimits/maxDepth``.
    package static let expressionTooDeep: DiagnosticCode = "expression-too-deep"
    /// An expression longer than ``ExpressionLimits/maxLength``.
    package static let expressionTooLong: DiagnosticCode = "expression-too-long"
}
