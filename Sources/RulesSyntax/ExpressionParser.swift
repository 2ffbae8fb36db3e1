/// Parses rule expressions (spec §2) into ``Expression`` trees.
///
/// The grammar is JavaScript's expression grammar cut down to what rules allow; the file
/// `Grammar/expression.ebnf` states it. Parsing stops at the first error. Regular expression
/// and array literals are accepted as any operand here; later phases say where they may appear.
package enum ExpressionParser {
    /// Parses `text`, one rule expression.
    ///
    /// On success the result has a root and no diagnostics; otherwise it has no root and one
    /// error whose range (in UTF-8 offsets of `text`) covers the offending token. The result's
    /// tree is never deeper than `limits.maxDepth`. The parser itself does not recurse, so it
    /// needs little stack whatever the input.
    package static func parse(_ text: String, limits: ExpressionLimits = .default) -> ParsedExpression {
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

    /// True when `word` is one of ``forbiddenKeywords``. Every identifier is tested, so the
    /// first byte picks the one or two candidates to compare instead of hashing the word.
    static func isForbiddenKeyword(_ word: String) -> Bool {
        switch word.utf8.first {
        case UInt8(ascii: "c"): word == "const"
        case UInt8(ascii: "d"): word == "delete"
        case UInt8(ascii: "f"): word == "function"
        case UInt8(ascii: "i"): word == "in" || word == "instanceof"
        case UInt8(ascii: "l"): word == "let"
        case UInt8(ascii: "n"): word == "new"
        case UInt8(ascii: "t"): word == "typeof"
        case UInt8(ascii: "v"): word == "var" || word == "void"
        default: false
        }
    }

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
            switch p {
            case .and: self = .logical(.and)
            case .or: self = .logical(.or)
            case .plus: self = .binary(.add)
            case .minus: self = .binary(.subtract)
            case .star: self = .binary(.multiply)
            case .slash: self = .binary(.divide)
            case .percent: self = .binary(.remainder)
            case .less: self = .binary(.less)
            case .lessOrEqual: self = .binary(.lessOrEqual)
            case .greater: self = .binary(.greater)
            case .greaterOrEqual: self = .binary(.greaterOrEqual)
            case .equal: self = .binary(.equal)
            case .notEqual: self = .binary(.notEqual)
            case .strictEqual: self = .binary(.strictEqual)
            case .strictNotEqual: self = .binary(.strictNotEqual)
            case .leftParen, .rightParen, .leftBracket, .rightBracket, .leftBrace, .rightBrace, .comma, .dot,
                .question, .colon, .bang:
                return nil
            }
        }
    }

    /// Where the parser is in the grammar.
    private enum Position {
        /// An operand must come next (after an operator, an opening bracket, `?`, `:` or `,`).
        case operand
        /// An operand is complete; a postfix, an infix operator or a closer may follow.
        case afterOperand
        /// The whole expression has been read.
        case done
    }

    /// An operator or bracket waiting for what follows it.
    private enum Pending {
        /// `!` or `-`; `run` counts the prefix operators in a row, this one included.
        case prefix(UnaryOperator, site: SourceRange, run: Int)
        case binary(BinaryOperator, precedence: Int, site: SourceRange)
        /// A flat `&&` or `||` chain with `count` operands (the last still being read), the
        /// tallest operand so far, and the operator before the last operand.
        case logical(LogicalOperator, precedence: Int, count: Int, tallest: Int, site: SourceRange)
        case group(open: SourceRange)
        /// `callee(`, with the number of arguments finished so far.
        case call(open: SourceRange, arguments: Int)
        case index(open: SourceRange)
        /// `[`, with the number of elements finished so far.
        case array(open: SourceRange, elements: Int)
        /// `condition ?`, reading the `then` branch.
        case conditionThen(question: SourceRange)
        /// `condition ? then :`, reading the `else` branch.
        case conditionElse(question: SourceRange)

        /// True for the operators that are folded into nodes when something of lower
        /// precedence or a closer arrives; the others are brackets.
        var isOperator: Bool {
            switch self {
            case .prefix, .binary, .logical, .conditionElse: true
            case .group, .call, .index, .array, .conditionThen: false
            }
        }
    }

    /// One parse: the token stream, the current token and the bookkeeping for the limits.
    ///
    /// The parser keeps its own stacks of operands and pending operators (an operator-precedence
    /// parser) instead of recursing, so it uses the same small amount of machine stack whatever
    /// the input; the limits bound the heap it uses and the depth of the tree it returns.
    private struct State {
        private var lexer: ExpressionLexer
        private var token = ExpressionToken(kind: .end, start: 0, end: 0)
        private let limits: ExpressionLimits
        private var operands: [Expression] = []
        private var pending: [Pending] = []
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
            // A node per token at most, and rule expressions have about one token per four
            // bytes: room up front instead of a series of doublings per expression.
            let expected = Swift.min(bytes.count / 3 + 8, 4_096)
            heights.reserveCapacity(expected)
            extents.reserveCapacity(expected)
            operands.reserveCapacity(16)
            pending.reserveCapacity(16)
        }

        var nodeCount: Int { heights.count }

        mutating func parseWhole() throws(ExpressionSyntaxError) -> Expression {
            try advance()
            var position = Position.operand
            while true {
                switch position {
                case .operand: position = try stepExpectingOperand()
                case .afterOperand: position = try stepAfterOperand()
                case .done:
                    guard operands.count == 1, pending.isEmpty, let root = operands.last else { throw unexpected(token) }
                    return root
                }
            }
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
            case .word(let word) where ExpressionParser.isForbiddenKeyword(word):
                return .keyword(word, at: t.range)
            default:
                return .unexpectedToken(lexer.text(of: t), at: t.range)
            }
        }

        /// The error for a token after a complete operand that neither continues it nor closes
        /// anything: what the innermost open bracket or ternary needs next. The end of the text
        /// and forbidden keywords keep their own messages.
        private func misplaced() -> ExpressionSyntaxError {
            let what: String
            switch pending.last(where: { !$0.isOperator }) {
            case .group?: what = "')'"
            case .call?: what = "',' or ')'"
            case .index?: what = "']'"
            case .array?: what = "',' or ']'"
            case .conditionThen?: what = "':'"
            default: return unexpected(token)
            }
            switch token.kind {
            case .end: return .unexpectedEnd(at: token.range)
            case .word(let word) where ExpressionParser.isForbiddenKeyword(word): return .keyword(word, at: token.range)
            default: return .expected(what, at: token.range)
            }
        }

        // MARK: Limits and nodes

        /// Pushes a bracket or `?`, counting it against the nesting limit.
        private mutating func open(_ bracket: Pending) throws(ExpressionSyntaxError) {
            nesting += 1
            guard nesting <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: token.range) }
            pending.append(bracket)
        }

        private func height(_ node: Expression) -> Int { Int(heights[node.id]) }

        private func extent(_ node: Expression) -> SourceRange { extents[node.id] }

        private func span(_ first: Expression, _ last: Expression) -> SourceRange {
            SourceRange(start: extent(first).start, end: extent(last).end)
        }

        /// Makes a node `height` levels high and pushes it, or reports it too deep at `site`.
        private mutating func push(
            _ kind: Expression.Kind, _ range: SourceRange, height: Int, at site: SourceRange
        ) throws(ExpressionSyntaxError) {
            guard height <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: site) }
            let node = Expression(kind, range: range, id: heights.count)
            heights.append(Int32(clamping: height))
            extents.append(range)
            operands.append(node)
        }

        private mutating func pushLeaf(_ kind: Expression.Kind) throws(ExpressionSyntaxError) -> Position {
            try push(kind, token.range, height: 1, at: token.range)
            try advance()
            return .afterOperand
        }

        /// Takes the last `count` operands (the stacks are consistent by construction; the
        /// check only turns a parser bug into an error instead of a trap).
        private mutating func popOperands(_ count: Int) throws(ExpressionSyntaxError) -> [Expression] {
            guard count >= 0, operands.count >= count else { throw unexpected(token) }
            let taken = Array(operands.suffix(count))
            operands.removeLast(count)
            return taken
        }

        private mutating func popOperand() throws(ExpressionSyntaxError) -> Expression {
            guard let node = operands.popLast() else { throw unexpected(token) }
            return node
        }

        // MARK: Steps

        /// Primary := Number | String | "true" | "false" | "null" | Regex | Array | Ident | "(" Expr ")",
        /// after any prefix operators.
        private mutating func stepExpectingOperand() throws(ExpressionSyntaxError) -> Position {
            switch token.kind {
            case .number(let value):
                return try pushLeaf(.number(value))
            case .string(let value):
                return try pushLeaf(.string(value))
            case .regex(let pattern, let flags):
                return try pushLeaf(.regex(pattern: pattern, flags: flags))
            case .word(let word):
                switch word {
                case "true": return try pushLeaf(.boolean(true))
                case "false": return try pushLeaf(.boolean(false))
                case "null": return try pushLeaf(.null)
                default:
                    guard !ExpressionParser.isForbiddenKeyword(word) else { throw .keyword(word, at: token.range) }
                    return try pushLeaf(.identifier(word))
                }
            case .punctuator(.bang), .punctuator(.minus):
                var run = 1
                if case .prefix(_, _, let previous)? = pending.last { run = previous + 1 }
                // Each operator adds a level on top of an operand of at least one.
                guard run + 1 <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: token.range) }
                pending.append(.prefix(token.is(.bang) ? .not : .negate, site: token.range, run: run))
                try advance()
                return .operand
            case .punctuator(.plus):
                throw .unaryPlus(at: token.range)
            case .punctuator(.leftParen):
                try open(.group(open: token.range))
                try advance()
                return .operand
            case .punctuator(.leftBracket):
                try open(.array(open: token.range, elements: 0))
                try advance()
                if token.is(.rightBracket) {
                    try closeArray(elements: 0)
                    return .afterOperand
                }
                return .operand
            default:
                throw unexpected(token)
            }
        }

        /// Postfix operators, infix operators, `?`, `:`, `,`, closers and the end.
        private mutating func stepAfterOperand() throws(ExpressionSyntaxError) -> Position {
            guard case .punctuator(let p) = token.kind else {
                if case .end = token.kind {
                    try reduceToBracket()
                    guard pending.isEmpty else { throw .unexpectedEnd(at: token.range) }
                    return .done
                }
                throw misplaced()
            }
            switch p {
            case .dot:
                let dot = token.range
                try advance()
                guard case .word(let name) = token.kind else {
                    if case .end = token.kind { throw .unexpectedEnd(at: token.range) }
                    throw .expectedPropertyName(at: token.range)
                }
                let target = try popOperand()
                try push(
                    .member(target, name: name, nameRange: token.range),
                    SourceRange(start: extent(target).start, end: token.range.end), height: height(target) + 1, at: dot)
                try advance()
                return .afterOperand
            case .leftBracket:
                try open(.index(open: token.range))
                try advance()
                return .operand
            case .leftParen:
                try open(.call(open: token.range, arguments: 0))
                try advance()
                if token.is(.rightParen) {
                    try closeCall(arguments: 0)
                    return .afterOperand
                }
                return .operand
            case .question:
                try reduce { if case .conditionElse = $0 { false } else { $0.isOperator } }
                try open(.conditionThen(question: token.range))
                try advance()
                return .operand
            case .colon:
                try reduceToBracket()
                guard case .conditionThen(let question)? = pending.last else { throw misplaced() }
                pending[pending.count - 1] = .conditionElse(question: question)
                try advance()
                return .operand
            case .comma:
                try reduceToBracket()
                switch pending.last {
                case .call(let open, let n)?: pending[pending.count - 1] = .call(open: open, arguments: n + 1)
                case .array(let open, let n)?: pending[pending.count - 1] = .array(open: open, elements: n + 1)
                default: throw misplaced()
                }
                try advance()
                return .operand
            case .rightParen:
                try reduceToBracket()
                switch pending.last {
                case .group(let open)?:
                    pending.removeLast()
                    nesting -= 1
                    if let inner = operands.last {
                        extents[inner.id] = SourceRange(start: open.start, end: token.range.end)
                    }
                    try advance()
                case .call(_, let n)?:
                    try closeCall(arguments: n + 1)
                default:
                    throw misplaced()
                }
                return .afterOperand
            case .rightBracket:
                try reduceToBracket()
                switch pending.last {
                case .index(let open)?:
                    pending.removeLast()
                    nesting -= 1
                    let index = try popOperand()
                    let target = try popOperand()
                    try push(
                        .index(target, index), SourceRange(start: extent(target).start, end: token.range.end),
                        height: max(height(target), height(index)) + 1, at: open)
                    try advance()
                case .array(_, let n)?:
                    try closeArray(elements: n + 1)
                default:
                    throw misplaced()
                }
                return .afterOperand
            default:
                guard let infix = Infix(token) else { throw misplaced() }
                try pushInfix(infix)
                return .operand
            }
        }

        /// Or, And, Equality, Relational, Additive and Mult: binary operators are
        /// left-associative, and a run of one logical operator becomes one flat node.
        private mutating func pushInfix(_ infix: Infix) throws(ExpressionSyntaxError) {
            let precedence = infix.precedence
            let site = token.range
            switch infix {
            case .binary(let op):
                try reduce { entry in
                    switch entry {
                    case .prefix: true
                    case .binary(_, let p, _), .logical(_, let p, _, _, _): p >= precedence
                    default: false
                    }
                }
                pending.append(.binary(op, precedence: precedence, site: site))
            case .logical(let op):
                try reduce { entry in
                    switch entry {
                    case .prefix, .binary: true
                    case .logical(_, let p, _, _, _): p > precedence
                    default: false
                    }
                }
                guard let left = operands.last else { throw unexpected(token) }
                if case .logical(op, _, let count, let tallest, let previousSite)? = pending.last {
                    let tallestNow = max(tallest, height(left))
                    guard tallestNow < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: previousSite) }
                    pending[pending.count - 1] = .logical(
                        op, precedence: precedence, count: count + 1, tallest: tallestNow, site: site)
                } else {
                    pending.append(.logical(op, precedence: precedence, count: 2, tallest: height(left), site: site))
                }
            }
            try advance()
        }

        /// Folds pending operators into nodes while `condition` holds for the top one.
        private mutating func reduce(while condition: (Pending) -> Bool) throws(ExpressionSyntaxError) {
            while let top = pending.last, condition(top) {
                pending.removeLast()
                try fold(top)
            }
        }

        /// Folds every pending operator above the innermost bracket or `?`.
        private mutating func reduceToBracket() throws(ExpressionSyntaxError) {
            try reduce { $0.isOperator }
        }

        private mutating func fold(_ entry: Pending) throws(ExpressionSyntaxError) {
            switch entry {
            case .prefix(let op, let site, _):
                let operand = try popOperand()
                try push(
                    .unary(op, operand), SourceRange(start: site.start, end: extent(operand).end),
                    height: height(operand) + 1, at: site)
            case .binary(let op, _, let site):
                let right = try popOperand()
                let left = try popOperand()
                try push(
                    .binary(op, left, right, operatorRange: site), span(left, right),
                    height: max(height(left), height(right)) + 1, at: site)
            case .logical(let op, _, let count, let tallest, let site):
                let items = try popOperands(count)
                guard let first = items.first, let last = items.last else { throw unexpected(token) }
                let tallestNow = max(tallest, height(last))
                guard tallestNow < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: site) }
                try push(.logical(op, items), span(first, last), height: tallestNow + 1, at: site)
            case .conditionElse(let question):
                nesting -= 1
                let whenFalse = try popOperand()
                let whenTrue = try popOperand()
                let condition = try popOperand()
                try push(
                    .conditional(condition, whenTrue, whenFalse), span(condition, whenFalse),
                    height: max(height(condition), height(whenTrue), height(whenFalse)) + 1, at: question)
            case .group, .call, .index, .array, .conditionThen:
                throw unexpected(token)
            }
        }

        /// Closes `callee(args)` at the current `)`.
        private mutating func closeCall(arguments count: Int) throws(ExpressionSyntaxError) {
            guard case .call(let open, _)? = pending.popLast() else { throw unexpected(token) }
            nesting -= 1
            let arguments = try popOperands(count)
            let callee = try popOperand()
            let tallest = arguments.reduce(height(callee)) { max($0, height($1)) }
            try push(
                .call(callee, arguments: arguments), SourceRange(start: extent(callee).start, end: token.range.end),
                height: tallest + 1, at: open)
            try advance()
        }

        /// Closes `[elements]` at the current `]`.
        private mutating func closeArray(elements count: Int) throws(ExpressionSyntaxError) {
            guard case .array(let open, _)? = pending.popLast() else { throw unexpected(token) }
            nesting -= 1
            let elements = try popOperands(count)
            let tallest = elements.reduce(0) { max($0, height($1)) }
            try push(
                .array(elements), SourceRange(start: open.start, end: token.range.end), height: tallest + 1, at: open)
            try advance()
        }
    }
}
