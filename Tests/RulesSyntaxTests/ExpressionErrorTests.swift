import Testing
@testable import RulesSyntax

/// One expected error: the text, its code, its exact message and the byte range it points at.
struct ExpectedError: Sendable, CustomTestStringConvertible {
    var text: String
    var code: DiagnosticCode
    var message: String
    var start: Int
    var end: Int

    init(_ text: String, _ code: DiagnosticCode, _ message: String, _ start: Int, _ end: Int) {
        self.text = text
        self.code = code
        self.message = message
        self.start = start
        self.end = end
    }

    var testDescription: String { text.debugDescription }
}

private let end = "Unexpected end of expression."
private let assignment = "Rule expressions may not contain assignments."

@Suite struct ExpressionErrorTests {
    @Test(arguments: [
        // Empty and truncated input.
        ExpectedError("", .expressionSyntax, end, 0, 0),
        ExpectedError("  \n ", .expressionSyntax, end, 4, 4),
        ExpectedError("(a", .expressionSyntax, end, 2, 2),
        ExpectedError("1 +", .expressionSyntax, end, 3, 3),
        ExpectedError("a ? b", .expressionSyntax, end, 5, 5),
        ExpectedError("a.", .expressionSyntax, end, 2, 2),
        ExpectedError("f(a,", .expressionSyntax, end, 4, 4),
        ExpectedError("[1, 2", .expressionSyntax, end, 5, 5),
        ExpectedError("!", .expressionSyntax, end, 1, 1),
        // Assignments, recorded wording, at the operator.
        ExpectedError("auth.uid = 'x'", .expressionAssignment, assignment, 9, 10),
        ExpectedError("root = 5", .expressionAssignment, assignment, 5, 6),
        ExpectedError("a += 1", .expressionAssignment, assignment, 2, 4),
        ExpectedError("a -= 1", .expressionAssignment, assignment, 2, 4),
        ExpectedError("a **= 1", .expressionAssignment, assignment, 2, 5),
        ExpectedError("a >>>= 1", .expressionAssignment, assignment, 2, 6),
        ExpectedError("a &&= b", .expressionAssignment, assignment, 2, 5),
        ExpectedError("a ??= b", .expressionAssignment, assignment, 2, 5),
        ExpectedError("a => b", .expressionAssignment, assignment, 2, 3),
        // Statements and declarations.
        ExpectedError("a; b", .expressionSyntax, "Rule expressions may not contain multiple statements.", 1, 2),
        ExpectedError("true;", .expressionSyntax, "Rule expressions may not contain multiple statements.", 4, 5),
        ExpectedError("var foo = 8", .expressionSyntax, "Rule expressions may not contain 'var'.", 0, 3),
        ExpectedError("let x", .expressionSyntax, "Rule expressions may not contain 'let'.", 0, 3),
        ExpectedError("const x", .expressionSyntax, "Rule expressions may not contain 'const'.", 0, 5),
        ExpectedError("function f() {}", .expressionSyntax, "Rule expressions may not contain 'function'.", 0, 8),
        ExpectedError("new Date()", .expressionSyntax, "Rule expressions may not contain 'new'.", 0, 3),
        ExpectedError("typeof a == 'x'", .expressionSyntax, "Rule expressions may not contain 'typeof'.", 0, 6),
        ExpectedError("delete a.b", .expressionSyntax, "Rule expressions may not contain 'delete'.", 0, 6),
        ExpectedError("void 0", .expressionSyntax, "Rule expressions may not contain 'void'.", 0, 4),
        ExpectedError("a instanceof b", .expressionSyntax, "Rule expressions may not contain 'instanceof'.", 2, 12),
        ExpectedError("'a' in auth", .expressionSyntax, "Rule expressions may not contain 'in'.", 4, 6),
        ExpectedError("(a in b)", .expressionSyntax, "Rule expressions may not contain 'in'.", 3, 5),
        ExpectedError("f(a in b)", .expressionSyntax, "Rule expressions may not contain 'in'.", 4, 6),
        ExpectedError("auth.uid var", .expressionSyntax, "Rule expressions may not contain 'var'.", 9, 12),
        ExpectedError("a == new", .expressionSyntax, "Rule expressions may not contain 'new'.", 5, 8),
        // Operators the language lacks.
        ExpectedError("2**2", .expressionOperator, "Rule expressions may not contain operator '**'.", 1, 3),
        ExpectedError("a & b", .expressionOperator, "Rule expressions may not contain operator '&'.", 2, 3),
        ExpectedError("a | b", .expressionOperator, "Rule expressions may not contain operator '|'.", 2, 3),
        ExpectedError("a ^ b", .expressionOperator, "Rule expressions may not contain operator '^'.", 2, 3),
        ExpectedError("~a", .expressionOperator, "Rule expressions may not contain operator '~'.", 0, 1),
        ExpectedError("a << 1", .expressionOperator, "Rule expressions may not contain operator '<<'.", 2, 4),
        ExpectedError("a >> 1", .expressionOperator, "Rule expressions may not contain operator '>>'.", 2, 4),
        ExpectedError("a >>> 1", .expressionOperator, "Rule expressions may not contain operator '>>>'.", 2, 5),
        ExpectedError("a++", .expressionOperator, "Rule expressions may not contain operator '++'.", 1, 3),
        ExpectedError("--a", .expressionOperator, "Rule expressions may not contain operator '--'.", 0, 2),
        ExpectedError("5--3", .expressionOperator, "Rule expressions may not contain operator '--'.", 1, 3),
        ExpectedError("a ?? b", .expressionOperator, "Rule expressions may not contain operator '??'.", 2, 4),
        ExpectedError("+a", .expressionOperator, "Unary '+' is not supported.", 0, 1),
        ExpectedError("1 + +a", .expressionOperator, "Unary '+' is not supported.", 4, 5),
        ExpectedError("!+a", .expressionOperator, "Unary '+' is not supported.", 1, 2),
        // Missing closers and separators.
        ExpectedError("(a b", .expressionSyntax, "Expected ')'.", 3, 4),
        ExpectedError("f(a b", .expressionSyntax, "Expected ',' or ')'.", 4, 5),
        ExpectedError("[a b]", .expressionSyntax, "Expected ',' or ']'.", 3, 4),
        ExpectedError("a[b c]", .expressionSyntax, "Expected ']'.", 4, 5),
        ExpectedError("a ? b c", .expressionSyntax, "Expected ':'.", 6, 7),
        ExpectedError("a.(b)", .expressionSyntax, "Expected a property name after '.'.", 2, 3),
        ExpectedError("a.'b'", .expressionSyntax, "Expected a property name after '.'.", 2, 5),
        // Unexpected tokens.
        ExpectedError("a b", .expressionSyntax, "Unexpected token 'b'.", 2, 3),
        ExpectedError("true false", .expressionSyntax, "Unexpected token 'false'.", 5, 10),
        ExpectedError("'it''s'", .expressionSyntax, "Unexpected token ''s''.", 4, 7),
        ExpectedError("a.1", .expressionSyntax, "Unexpected token '.1'.", 1, 3),
        ExpectedError("* 2", .expressionSyntax, "Unexpected token '*'.", 0, 1),
        ExpectedError(")", .expressionSyntax, "Unexpected token ')'.", 0, 1),
        ExpectedError("a)", .expressionSyntax, "Unexpected token ')'.", 1, 2),
        ExpectedError("f(a,)", .expressionSyntax, "Unexpected token ')'.", 4, 5),
        ExpectedError("f(,a)", .expressionSyntax, "Unexpected token ','.", 2, 3),
        ExpectedError("[,a]", .expressionSyntax, "Unexpected token ','.", 1, 2),
        ExpectedError("[a,]", .expressionSyntax, "Unexpected token ']'.", 3, 4),
        ExpectedError("a ? b : c : d", .expressionSyntax, "Unexpected token ':'.", 10, 11),
        ExpectedError("{a: 1}", .expressionSyntax, "Unexpected token '{'.", 0, 1),
        ExpectedError("()", .expressionSyntax, "Unexpected token ')'.", 1, 2),
        ExpectedError("a == == b", .expressionSyntax, "Unexpected token '=='.", 5, 7),
        ExpectedError("$", .expressionSyntax, "Unexpected token '$'.", 0, 1),
        ExpectedError("$ == 1", .expressionSyntax, "Unexpected token '$'.", 0, 1),
        ExpectedError("a$b", .expressionSyntax, "Unexpected token '$b'.", 1, 3),
        ExpectedError("#", .expressionSyntax, "Unexpected token '#'.", 0, 1),
        ExpectedError("a @ b", .expressionSyntax, "Unexpected token '@'.", 2, 3),
        ExpectedError("`x`", .expressionSyntax, "Unexpected token '`'.", 0, 1),
        ExpectedError("a \\ b", .expressionSyntax, "Unexpected token '\\'.", 2, 3),
        ExpectedError("é", .expressionSyntax, "Unexpected token 'é'.", 0, 2),
        ExpectedError("a == 😀", .expressionSyntax, "Unexpected token '😀'.", 5, 9),
        ExpectedError("\u{0}", .expressionSyntax, "Unexpected token '\\u0000'.", 0, 1),
        ExpectedError("a?.b", .expressionSyntax, "Unexpected token '.'.", 2, 3),
        // Literals.
        ExpectedError("'abc", .expressionSyntax, "Unterminated string literal.", 0, 1),
        ExpectedError("a == \"x", .expressionSyntax, "Unterminated string literal.", 5, 6),
        ExpectedError("'abc\ndef'", .expressionSyntax, "Unterminated string literal.", 0, 1),
        ExpectedError("'abc\\", .expressionSyntax, "Unterminated string literal.", 0, 1),
        ExpectedError("'a\"", .expressionSyntax, "Unterminated string literal.", 0, 1),
        ExpectedError("'\\x4'", .expressionSyntax, "Invalid escape sequence in string literal.", 1, 3),
        ExpectedError("'\\u12'", .expressionSyntax, "Invalid escape sequence in string literal.", 1, 3),
        ExpectedError("'\\u{110000}'", .expressionSyntax, "Invalid escape sequence in string literal.", 1, 3),
        ExpectedError("'\\u{}'", .expressionSyntax, "Invalid escape sequence in string literal.", 1, 3),
        ExpectedError("x.matches(/abc)", .expressionSyntax, "unterminated regular expression literal", 10, 11),
        ExpectedError("/abc", .expressionSyntax, "unterminated regular expression literal", 0, 1),
        ExpectedError("/a\nb/", .expressionSyntax, "unterminated regular expression literal", 0, 1),
        ExpectedError("/a\u{2028}b/", .expressionSyntax, "unterminated regular expression literal", 0, 1),
        ExpectedError("/a\\", .expressionSyntax, "unterminated regular expression literal", 0, 1),
        ExpectedError("/a\\\n/", .expressionSyntax, "unterminated regular expression literal", 0, 1),
        ExpectedError("/[/", .expressionSyntax, "unterminated regular expression literal", 0, 1),
        ExpectedError("//", .expressionSyntax, "Empty regular expression literal.", 0, 2),
        ExpectedError("1x", .expressionSyntax, "Invalid number literal.", 0, 2),
        ExpectedError("0x1F", .expressionSyntax, "Invalid number literal.", 0, 4),
        ExpectedError("1e", .expressionSyntax, "Invalid number literal.", 0, 2),
        ExpectedError("1e+", .expressionSyntax, "Invalid number literal.", 0, 3),
        ExpectedError("3in b", .expressionSyntax, "Invalid number literal.", 0, 3),
        ExpectedError("1.5$", .expressionSyntax, "Invalid number literal.", 0, 4),
        // A regex cannot follow an operand: the `/` is then a division with nothing after it.
        ExpectedError("a /b/", .expressionSyntax, end, 5, 5),
    ])
    func error(expected: ExpectedError) {
        let result = ExpressionParser.parse(expected.text)
        #expect(result.root == nil)
        #expect(result.nodeCount == 0)
        #expect(result.diagnostics.count == 1)
        guard let diagnostic = result.diagnostics.first else { return }
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.code == expected.code)
        #expect(diagnostic.message == expected.message)
        #expect(diagnostic.range == SourceRange(expected.start, expected.end))
    }

    @Test func theFirstErrorInSourceOrderIsReported() {
        let result = ExpressionParser.parse("a = b; c ** d")
        #expect(result.diagnostics.map(\.code) == [.expressionAssignment])
        let later = ExpressionParser.parse("(a ** b) = c")
        #expect(later.diagnostics.map(\.code) == [.expressionOperator])
    }

    @Test func longTokensAreCutInMessages() {
        let long = "'" + String(repeating: "é", count: 100) + "'"
        let result = ExpressionParser.parse("a " + long)
        let diagnostic = result.diagnostics.first
        #expect(diagnostic?.range == SourceRange(2, 2 + long.utf8.count))
        // 40 bytes at most (the opening quote and 19 two-byte letters), then an ellipsis.
        #expect(diagnostic?.message == "Unexpected token ''" + String(repeating: "é", count: 19) + "…'.")
    }

    @Test func tooLong() {
        let result = ExpressionParser.parse("123456", limits: ExpressionLimits(maxDepth: 10, maxLength: 5))
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.code) == [.expressionTooLong])
        #expect(result.diagnostics.first?.message == "Expression is too long (6 bytes; the limit is 5).")
        #expect(result.diagnostics.first?.range == SourceRange(0, 6))
        // Exactly at the limit is fine; the limit counts bytes, not characters.
        #expect(ExpressionParser.parse("12345", limits: ExpressionLimits(maxDepth: 10, maxLength: 5)).root != nil)
        #expect(ExpressionParser.parse("'éé'", limits: ExpressionLimits(maxDepth: 10, maxLength: 5)).root == nil)
    }
}
