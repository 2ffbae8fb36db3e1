/// One token of a rule expression, with its UTF-8 byte offsets in the expression text.
struct ExpressionToken: Sendable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// A number literal, already converted.
        case number(Double)
        /// A string literal, decoded.
        case string(String)
        /// A regular expression literal: the pattern as written between the slashes, and the flags.
        case regex(pattern: String, flags: String)
        /// A name: an identifier, a `$name`, or one of the words `true`, `false`, `null`, `var`, ...
        case word(String)
        /// An operator or punctuation mark the grammar uses.
        case punctuator(Punctuator)
        /// The end of the text.
        case end
    }

    /// The operators and punctuation marks the grammar uses. Raw values are the spellings; the
    /// binary ones match ``BinaryOperator`` and ``LogicalOperator`` raw values.
    enum Punctuator: String, Sendable {
        case leftParen = "("
        case rightParen = ")"
        case leftBracket = "["
        case rightBracket = "]"
        case leftBrace = "{"
        case rightBrace = "}"
        case comma = ","
        case dot = "."
        case question = "?"
        case colon = ":"
        case bang = "!"
        case plus = "+"
        case minus = "-"
        case star = "*"
        case slash = "/"
        case percent = "%"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case equal = "=="
        case notEqual = "!="
        case strictEqual = "==="
        case strictNotEqual = "!=="
        case and = "&&"
        case or = "||"
    }

    /// What the token is.
    var kind: Kind
    /// Its first byte.
    var start: Int
    /// One past its last byte.
    var end: Int

    /// Its bytes as a range.
    var range: SourceRange { SourceRange(start, end) }

    /// True when the token can be the last token of an operand, so that a `/` after it divides
    /// rather than starting a regular expression literal.
    var endsOperand: Bool {
        switch kind {
        case .number, .string, .regex, .word: true
        case .punctuator(let p): p == .rightParen || p == .rightBracket || p == .rightBrace
        case .end: false
        }
    }

    /// True when the token is the punctuator `p`.
    func `is`(_ p: Punctuator) -> Bool {
        if case .punctuator(let q) = kind { return q == p }
        return false
    }
}
