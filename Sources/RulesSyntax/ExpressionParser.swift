/// Parses rule expressions (spec §2) into ``Expression`` trees.
///
/// The grammar is JavaScript's expression grammar cut down to what rules allow; the file
/// `Grammar/expression.ebnf` states it. Parsing stops at the first error. Regular expression
/// and array literals are accepted as any operand here; later phases say where they may appear.
public enum ExpressionParser {
    /// Parses `text`, one rule expression.
    ///
    /// On success the result has a root and no diagnostics; otherwise it has no root and one
    /// error whose range (in UTF-8 offsets of `text`) covers the offending token. The result's
    /// tree is never deeper than `limits.maxDepth`, and the parser's own recursion is bounded
    /// by it too (a few stack frames per level).
    public static func parse(_ text: String, limits: ExpressionLimits = .default) -> ParsedExpression {
        let length = text.utf8.count
        guard length <= limits.maxLength else {
            let error = ExpressionSyntaxError.tooLong(length: length, limit: limits.maxLength)
            return ParsedExpression(root: nil, diagnostics: [error.diagnostic], nodeCount: 0)
        }
        var state = State(bytes: Array(text.utf8), limits: limits)
        do throws(ExpressionSyntaxError) {
            let root = try state.parseWhole()
            return ParsedExpression(root: root, diagnostics: [], nodeCount: state.nodeCount)
        } catch {
            return ParsedExpression(root: nil, diagnostics: [error.diagnostic], nodeCount: 0)
        }
    }

    /// Words that start JavaScript statements or operators the rules language lacks.
    static let forbiddenKeywords: Set<String> = [
        "var", "let", "const", "function", "new", "typeof", "delete", "void", "instanceof", "in",
    ]

    /// A binary operator as the precedence climber sees it.
    private enum Infix {
        case binary(BinaryOperator)
        case logical(LogicalOperator)

        /// JavaScript's binding strengths: `||` 1, `&&` 2, equality 3, relational 4, additive 5,
        /// multiplicative 6.
        var precedence: Int {
            switch self {
            case .logical(.or): 1
            case .logical(.and): 2
            case .binary(let op) where op.isEquality: 3
            case .binary(let op) where op.isRelational: 4
            case .binary(.add), .binary(.subtract): 5
            case .binary: 6
            }
        }

        init?(_ token: ExpressionToken) {
            guard case .punctuator(let p) = token.kind else { return nil }
            if let op = LogicalOperator(rawValue: p.rawValue) {
                self = .logical(op)
            } else if let op = BinaryOperator(rawValue: p.rawValue) {
                self = .binary(op)
            } else {
                return nil
            }
        }
    }

    /// One parse: the token stream, the current token and the bookkeeping for the limits.
    ///
    /// Recursion goes parseConditional → parseBinary (at most one frame per precedence level) →
    /// parseOperand → parsePrimary or parsePostfixes → parseConditional, and every such cycle
    /// enters a bracket, call or ternary, which ``enter(_:)`` counts against the limit.
    private struct State {
        private var lexer: ExpressionLexer
        private var token = ExpressionToken(kind: .end, start: 0, end: 0)
        private let limits: ExpressionLimits
        /// Open brackets, calls and ternaries around the current token.
        private var nesting = 0
        /// Height of each node made so far, by id (a leaf is 1).
        private var heights: [Int32] = []
        /// The range of each node including any parentheses written around it, by id, so that
        /// a parent's range covers `(a + b)` whole while the child keeps its own range.
        private var extents: [SourceRange] = []

        init(bytes: [UInt8], limits: ExpressionLimits) {
            lexer = ExpressionLexer(bytes: bytes)
            self.limits = limits
        }

        var nodeCount: Int { heights.count }

        mutating func parseWhole() throws(ExpressionSyntaxError) -> Expression {
            try advance()
            let root = try parseConditional()
            guard case .end = token.kind else { throw unexpected(token) }
            return root
        }

        // MARK: Tokens

        private mutating func advance() throws(ExpressionSyntaxError) {
            token = try lexer.next()
        }

        /// The error for a token that cannot appear where it is.
        private func unexpected(_ t: ExpressionToken) -> ExpressionSyntaxError {
            switch t.kind {
            case .end:
                return .unexpectedEnd(at: t.range)
            case .word(let word) where ExpressionParser.forbiddenKeywords.contains(word):
                return .keyword(word, at: t.range)
            default:
                return .unexpectedToken(lexer.text(of: t), at: t.range)
            }
        }

        /// The error when `what` (already quoted) must come next; the end of the text and
        /// forbidden keywords keep their own messages.
        private func expected(_ what: String) -> ExpressionSyntaxError {
            switch token.kind {
            case .end: return .unexpectedEnd(at: token.range)
            case .word(let word) where ExpressionParser.forbiddenKeywords.contains(word): return .keyword(word, at: token.range)
            default: return .expected(what, at: token.range)
            }
        }

        // MARK: Limits and nodes

        private mutating func enter(_ opener: ExpressionToken) throws(ExpressionSyntaxError) {
            nesting += 1
            guard nesting <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: opener.range) }
        }

        private mutating func leave() {
            nesting -= 1
        }

        private func height(_ node: Expression) -> Int { Int(heights[node.id]) }

        private func extent(_ node: Expression) -> SourceRange { extents[node.id] }

        private func span(_ first: Expression, _ last: Expression) -> SourceRange {
            SourceRange(start: extent(first).start, end: extent(last).end)
        }

        /// Makes a node `height` levels high, or reports it too deep at `site`.
        private mutating func make(
            _ kind: Expression.Kind, _ range: SourceRange, height: Int, at site: SourceRange
        ) throws(ExpressionSyntaxError) -> Expression {
            guard height <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: site) }
            let node = Expression(kind, range: range, id: heights.count)
            heights.append(Int32(clamping: height))
            extents.append(range)
            return node
        }

        private mutating func leaf(_ kind: Expression.Kind) throws(ExpressionSyntaxError) -> Expression {
            let node = try make(kind, token.range, height: 1, at: token.range)
            try advance()
            return node
        }

        // MARK: Grammar

        /// Cond := Or ("?" Cond ":" Cond)?  (right-associative)
        private mutating func parseConditional() throws(ExpressionSyntaxError) -> Expression {
            let condition = try parseBinary(minimumPrecedence: 1)
            guard token.is(.question) else { return condition }
            let question = token
            try enter(question)
            try advance()
            let whenTrue = try parseConditional()
            guard token.is(.colon) else { throw expected("':'") }
            try advance()
            let whenFalse = try parseConditional()
            leave()
            let h = max(height(condition), height(whenTrue), height(whenFalse)) + 1
            return try make(
                .conditional(condition, whenTrue, whenFalse), span(condition, whenFalse), height: h, at: question.range)
        }

        /// Or, And, Equality, Relational, Additive and Mult by precedence climbing: binary
        /// operators are left-associative, and a run of one logical operator becomes one flat
        /// node.
        private mutating func parseBinary(minimumPrecedence: Int) throws(ExpressionSyntaxError) -> Expression {
            var left = try parseOperand()
            while let infix = Infix(token), infix.precedence >= minimumPrecedence {
                switch infix {
                case .logical(let op):
                    var operands = [left]
                    var tallest = height(left)
                    var site = token.range
                    while let next = Infix(token), case .logical(op) = next {
                        site = token.range
                        try advance()
                        let operand = try parseBinary(minimumPrecedence: infix.precedence + 1)
                        tallest = max(tallest, height(operand))
                        guard tallest < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: site) }
                        operands.append(operand)
                    }
                    left = try make(.logical(op, operands), span(left, operands[operands.count - 1]), height: tallest + 1, at: site)
                case .binary(let op):
                    let site = token.range
                    try advance()
                    let right = try parseBinary(minimumPrecedence: infix.precedence + 1)
                    let h = max(height(left), height(right)) + 1
                    left = try make(.binary(op, left, right, operatorRange: site), span(left, right), height: h, at: site)
                }
            }
            return left
        }

        /// Unary := ("!" | "-") Unary | Postfix. Prefix operators are gathered in a loop and
        /// applied innermost first, so a long `!!!!x` costs no stack.
        private mutating func parseOperand() throws(ExpressionSyntaxError) -> Expression {
            var prefixes: [(op: UnaryOperator, range: SourceRange)] = []
            prefixLoop: while case .punctuator(let p) = token.kind {
                let op: UnaryOperator
                switch p {
                case .bang: op = .not
                case .minus: op = .negate
                case .plus: throw .unaryPlus(at: token.range)
                default: break prefixLoop
                }
                // Each operator adds a level on top of an operand of at least one.
                guard prefixes.count + 2 <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: token.range) }
                prefixes.append((op, token.range))
                try advance()
            }
            var operand = try parsePostfixes(try parsePrimary())
            for prefix in prefixes.reversed() {
                operand = try make(
                    .unary(prefix.op, operand), SourceRange(start: prefix.range.start, end: extent(operand).end),
                    height: height(operand) + 1, at: prefix.range)
            }
            return operand
        }

        /// Postfix := Primary ("." Ident | "[" Expr "]" | "(" Args? ")")*
        private mutating func parsePostfixes(_ base: Expression) throws(ExpressionSyntaxError) -> Expression {
            var target = base
            while case .punctuator(let p) = token.kind {
                switch p {
                case .dot:
                    let dot = token
                    try advance()
                    guard case .word(let name) = token.kind else {
                        if case .end = token.kind { throw .unexpectedEnd(at: token.range) }
                        throw .expectedPropertyName(at: token.range)
                    }
                    let nameRange = token.range
                    target = try make(
                        .member(target, name: name, nameRange: nameRange),
                        SourceRange(start: extent(target).start, end: nameRange.end), height: height(target) + 1,
                        at: dot.range)
                    try advance()
                case .leftBracket:
                    let open = token
                    try enter(open)
                    try advance()
                    let index = try parseConditional()
                    guard token.is(.rightBracket) else { throw expected("']'") }
                    leave()
                    target = try make(
                        .index(target, index), SourceRange(start: extent(target).start, end: token.range.end),
                        height: max(height(target), height(index)) + 1, at: open.range)
                    try advance()
                case .leftParen:
                    let open = token
                    try enter(open)
                    try advance()
                    var arguments: [Expression] = []
                    var tallest = height(target)
                    if !token.is(.rightParen) {
                        while true {
                            let argument = try parseConditional()
                            tallest = max(tallest, height(argument))
                            arguments.append(argument)
                            if token.is(.comma) {
                                try advance()
                            } else if token.is(.rightParen) {
                                break
                            } else {
                                throw expected("',' or ')'")
                            }
                        }
                    }
                    leave()
                    target = try make(
                        .call(target, arguments: arguments), SourceRange(start: extent(target).start, end: token.range.end),
                        height: tallest + 1, at: open.range)
                    try advance()
                default:
                    return target
                }
            }
            return target
        }

        /// Primary := Number | String | "true" | "false" | "null" | Regex | Array | Ident | "(" Expr ")"
        private mutating func parsePrimary() throws(ExpressionSyntaxError) -> Expression {
            switch token.kind {
            case .number(let value):
                return try leaf(.number(value))
            case .string(let value):
                return try leaf(.string(value))
            case .regex(let pattern, let flags):
                return try leaf(.regex(pattern: pattern, flags: flags))
            case .word(let word):
                switch word {
                case "true": return try leaf(.boolean(true))
                case "false": return try leaf(.boolean(false))
                case "null": return try leaf(.null)
                default:
                    guard !ExpressionParser.forbiddenKeywords.contains(word) else { throw .keyword(word, at: token.range) }
                    return try leaf(.identifier(word))
                }
            case .punctuator(.leftParen):
                let open = token
                try enter(open)
                try advance()
                let inner = try parseConditional()
                guard token.is(.rightParen) else { throw expected("')'") }
                leave()
                extents[inner.id] = SourceRange(start: open.range.start, end: token.range.end)
                try advance()
                return inner
            case .punctuator(.leftBracket):
                let open = token
                try enter(open)
                try advance()
                var elements: [Expression] = []
                var tallest = 0
                if !token.is(.rightBracket) {
                    while true {
                        let element = try parseConditional()
                        tallest = max(tallest, height(element))
                        elements.append(element)
                        if token.is(.comma) {
                            try advance()
                        } else if token.is(.rightBracket) {
                            break
                        } else {
                            throw expected("',' or ']'")
                        }
                    }
                }
                leave()
                let node = try make(
                    .array(elements), SourceRange(start: open.range.start, end: token.range.end), height: tallest + 1,
                    at: open.range)
                try advance()
                return node
            default:
                throw unexpected(token)
            }
        }
    }
}
