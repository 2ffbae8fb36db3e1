/// A node of a rule expression's syntax tree.
///
/// Ranges are UTF-8 offsets into the decoded expression text; ``ExpressionSource`` maps them to
/// the file. Reference semantics (a final class) keep the tree cheap to pass around and let later
/// phases key side tables by node identity (``id``).
package final class Expression: Sendable {
    /// What the node is.
    package let kind: Kind
    /// Its bytes in the expression text.
    package let range: SourceRange
    /// A number unique within one parsed expression, in creation order (for side tables).
    package let id: Int

    /// Creates a node.
    package init(_ kind: Kind, range: SourceRange, id: Int) {
        self.kind = kind
        self.range = range
        self.id = id
    }

    /// The kinds of expression node.
    package enum Kind: Sendable {
        /// A number literal (decimal integer or decimal fraction).
        case number(Double)
        /// A string literal, decoded.
        case string(String)
        /// `true` or `false`.
        case boolean(Bool)
        /// `null`.
        case null
        /// `/pattern/flags`: only valid as the argument of `matches()`.
        case regex(pattern: String, flags: String)
        /// `[a, b]`: only valid as the argument of `hasChildren()`.
        case array([Expression])
        /// A name: `auth`, `root`, `data`, `newData`, `now`, `query`, or `$name` (with the `$`).
        case identifier(String)
        /// `object.name`; `nameRange` covers the name.
        case member(Expression, name: String, nameRange: SourceRange)
        /// `object[index]`.
        case index(Expression, Expression)
        /// `callee(arguments)`.
        case call(Expression, arguments: [Expression])
        /// `!x` or `-x`.
        case unary(UnaryOperator, Expression)
        /// `a op b` for arithmetic, comparison and equality; `operatorRange` covers the operator.
        case binary(BinaryOperator, Expression, Expression, operatorRange: SourceRange)
        /// `a && b && c` or `a || b || c`: a flat chain of one operator, left to right.
        case logical(LogicalOperator, [Expression])
        /// `condition ? then : else`.
        case conditional(Expression, Expression, Expression)
    }
}

/// A prefix operator.
package enum UnaryOperator: String, Sendable, Hashable {
    case not = "!"
    case negate = "-"
}

/// A binary operator other than `&&` and `||`.
package enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case strictEqual = "==="
    case strictNotEqual = "!=="

    /// True for the four ordering comparisons.
    package var isRelational: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual: true
        default: false
        }
    }

    /// True for `==`, `!=`, `===`, `!==`.
    package var isEquality: Bool {
        switch self {
        case .equal, .notEqual, .strictEqual, .strictNotEqual: true
        default: false
        }
    }

    /// True for `-`, `*`, `/`, `%` (numbers only).
    package var isNumericArithmetic: Bool {
        switch self {
        case .subtract, .multiply, .divide, .remainder: true
        default: false
        }
    }

    /// The spelling the server uses in messages: `===` and `!==` are reported as `==` and `!=`.
    package var messageSpelling: String {
        switch self {
        case .strictEqual: "=="
        case .strictNotEqual: "!="
        default: rawValue
        }
    }
}

/// `&&` or `||`.
package enum LogicalOperator: String, Sendable, Hashable {
    case and = "&&"
    case or = "||"
}
