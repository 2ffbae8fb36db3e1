import Testing
@testable import RulesSyntax

/// A fully parenthesised prefix form of a tree, for comparing shapes: `1+2*3` is `(+ 1 (* 2 3))`.
func sExpression(_ node: Expression) -> String {
    switch node.kind {
    case .number(let value):
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    case .string(let value): return "'\(value)'"
    case .boolean(let value): return String(value)
    case .null: return "null"
    case .regex(let pattern, let flags): return "/\(pattern)/\(flags)"
    case .array(let elements): return "(array" + elements.map { " " + sExpression($0) }.joined() + ")"
    case .identifier(let name): return name
    case .member(let object, let name, _): return "(. \(sExpression(object)) \(name))"
    case .index(let object, let index): return "([] \(sExpression(object)) \(sExpression(index)))"
    case .call(let callee, let arguments):
        return "(call \(sExpression(callee))" + arguments.map { " " + sExpression($0) }.joined() + ")"
    case .unary(let op, let operand): return "(\(op == .not ? "!" : "neg") \(sExpression(operand)))"
    case .binary(let op, let left, let right, _): return "(\(op.rawValue) \(sExpression(left)) \(sExpression(right)))"
    case .logical(let op, let operands): return "(\(op.rawValue)" + operands.map { " " + sExpression($0) }.joined() + ")"
    case .conditional(let c, let t, let f): return "(? \(sExpression(c)) \(sExpression(t)) \(sExpression(f)))"
    }
}

/// Parses text that must be valid and returns its tree.
func parseValid(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Expression? {
    let result = ExpressionParser.parse(text)
    #expect(result.diagnostics.isEmpty, "\(text): \(result.diagnostics.map(\.message))", sourceLocation: sourceLocation)
    #expect(result.root != nil, sourceLocation: sourceLocation)
    return result.root
}

/// The text covered by a range of an expression.
func slice(_ text: String, _ range: SourceRange) -> String {
    let bytes = Array(text.utf8)
    let lower = min(max(Int(range.start), 0), bytes.count)
    let upper = min(max(Int(range.end), lower), bytes.count)
    return String(decoding: bytes[lower..<upper], as: UTF8.self)
}

/// All nodes of a tree, parents before children.
func allNodes(_ root: Expression) -> [Expression] {
    var result: [Expression] = []
    var stack = [root]
    while let node = stack.popLast() {
        result.append(node)
        switch node.kind {
        case .number, .string, .boolean, .null, .regex, .identifier: break
        case .array(let items): stack.append(contentsOf: items)
        case .member(let object, _, _): stack.append(object)
        case .index(let a, let b): stack.append(contentsOf: [a, b])
        case .call(let callee, let arguments): stack.append(callee); stack.append(contentsOf: arguments)
        case .unary(_, let operand): stack.append(operand)
        case .binary(_, let a, let b, _): stack.append(contentsOf: [a, b])
        case .logical(_, let operands): stack.append(contentsOf: operands)
        case .conditional(let a, let b, let c): stack.append(contentsOf: [a, b, c])
        }
    }
    return result
}

@Suite struct ExpressionParserTests {
    @Test(arguments: [
        // Multiplicative over additive over relational over equality over && over || over ?:.
        ("1+2*3", "(+ 1 (* 2 3))"),
        ("1*2+3", "(+ (* 1 2) 3)"),
        ("1+2*3==7", "(== (+ 1 (* 2 3)) 7)"),
        ("false == 1 < 2", "(== false (< 1 2))"),
        ("1 < 2 == 2 < 3", "(== (< 1 2) (< 2 3))"),
        ("false && false || true", "(|| (&& false false) true)"),
        ("a || b && c", "(|| a (&& b c))"),
        ("!(true || false && false)", "(! (|| true (&& false false)))"),
        ("true || false ? false : true", "(? (|| true false) false true)"),
        ("true ? false : true ? true : true", "(? true false (? true true true))"),
        ("a ? b ? c : d : e", "(? a (? b c d) e)"),
        ("a ? b : c", "(? a b c)"),
        // Left associativity.
        ("10-4-3==3", "(== (- (- 10 4) 3) 3)"),
        ("8/4/2==1", "(== (/ (/ 8 4) 2) 1)"),
        ("7%4*2==6", "(== (* (% 7 4) 2) 6)"),
        ("a == b != c", "(!= (== a b) c)"),
        ("a === b !== c", "(!== (=== a b) c)"),
        ("a < b <= c > d >= e", "(>= (> (<= (< a b) c) d) e)"),
        ("(1+2)*3", "(* (+ 1 2) 3)"),
        ("1-(2-3)", "(- 1 (- 2 3))"),
        // Unary binds tighter than any binary operator and looser than postfix.
        ("-1+2==1", "(== (+ (neg 1) 2) 1)"),
        ("!a && b", "(&& (! a) b)"),
        ("!!a", "(! (! a))"),
        ("- -1", "(neg (neg 1))"),
        ("!-a", "(! (neg a))"),
        ("-a.b", "(neg (. a b))"),
        ("!data.exists()", "(! (call (. data exists)))"),
        ("2 * -3", "(* 2 (neg 3))"),
        // Postfix chains.
        ("data.child('a').val()", "(call (. (call (. data child) 'a') val))"),
        ("auth.token['firebase']['sign_in_provider']", "([] ([] (. auth token) 'firebase') 'sign_in_provider')"),
        ("root[\"exists\"]()", "(call ([] root 'exists'))"),
        ("a.b(c, d + 1)(e)", "(call (call (. a b) c (+ d 1)) e)"),
        ("auth.foo[$bar]", "([] (. auth foo) $bar)"),
        ("auth.token.firebase.identities['google.com'][0]", "([] ([] (. (. (. auth token) firebase) identities) 'google.com') 0)"),
        // Member names may be any word, including reserved ones.
        ("auth.null == auth.true", "(== (. auth null) (. auth true))"),
        ("auth.in == auth.var", "(== (. auth in) (. auth var))"),
        // Literals.
        ("[]", "(array)"),
        ("['a', 'b']", "(array 'a' 'b')"),
        ("data.hasChildren(['a', 'b'])", "(call (. data hasChildren) (array 'a' 'b'))"),
        ("newData.val().matches(/^\\d+$/)", "(call (. (call (. newData val)) matches) /^\\d+$/)"),
        ("x.matches(/a/i)", "(call (. x matches) /a/i)"),
        ("null == null", "(== null null)"),
        ("$uid == auth.uid", "(== $uid (. auth uid))"),
        ("now - 1000 < newData.val()", "(< (- now 1000) (call (. newData val)))"),
        ("data.val() <= (data.val() > 50 ? 200 : 100)", "(<= (call (. data val)) (? (> (call (. data val)) 50) 200 100))"),
        // Regex after `(`, `,`, `?`, `:`, `!` and operators; division after `)` `]` and names.
        ("a ? /x/ : /y/", "(? a /x/ /y/)"),
        ("f(/a/, /b/)", "(call f /a/ /b/)"),
        ("a / b / c", "(/ (/ a b) c)"),
        ("(a) / 2", "(/ a 2)"),
        ("a[0] / 2", "(/ ([] a 0) 2)"),
        ("x == /a/", "(== x /a/)"),
        // White space of every kind, including raw line breaks from multi-line JSON strings.
        ("query.orderByKey &&\n query.limitToFirst <= 100", "(&& (. query orderByKey) (<= (. query limitToFirst) 100))"),
        ("\ta\r\n==\u{A0}b\u{2028}", "(== a b)"),
    ])
    func shape(text: String, expected: String) throws {
        let root = try #require(parseValid(text))
        #expect(sExpression(root) == expected)
    }

    /// Every binary operator's spelling parses to that operator.
    @Test(arguments: BinaryOperator.allCases)
    func everyBinaryOperatorParsesToItself(_ op: BinaryOperator) throws {
        let root = try #require(parseValid("a \(op.rawValue) b"))
        guard case .binary(let parsed, _, _, _) = root.kind else {
            Issue.record("not a binary node: \(sExpression(root))")
            return
        }
        #expect(parsed == op)
    }

    @Test func logicalChainsAreFlat() throws {
        let and = try #require(parseValid("a && b && c && d"))
        guard case .logical(.and, let operands) = and.kind else { Issue.record("not a logical node"); return }
        #expect(operands.count == 4)
        #expect(sExpression(and) == "(&& a b c d)")

        let mixed = try #require(parseValid("a && b || c || d && e && f"))
        #expect(sExpression(mixed) == "(|| (&& a b) c (&& d e f))")

        // Parentheses keep the structure as written.
        let grouped = try #require(parseValid("(a && b) && c"))
        #expect(sExpression(grouped) == "(&& (&& a b) c)")
        let right = try #require(parseValid("a || (b || c)"))
        #expect(sExpression(right) == "(|| a (|| b c))")
    }

    @Test func memberAndOperatorRanges() throws {
        let text = "auth.token.email == 'x'"
        let root = try #require(parseValid(text))
        guard case .binary(.equal, let left, let right, let operatorRange) = root.kind else {
            Issue.record("not ==")
            return
        }
        #expect(operatorRange == SourceRange(17, 19))
        #expect(slice(text, root.range) == text)
        #expect(slice(text, right.range) == "'x'")
        guard case .member(let object, let name, let nameRange) = left.kind else {
            Issue.record("not a member")
            return
        }
        #expect(name == "email")
        #expect(nameRange == SourceRange(11, 16))
        #expect(slice(text, left.range) == "auth.token.email")
        #expect(slice(text, object.range) == "auth.token")
    }

    @Test func rangesCoverParenthesesInParentsButNotInTheGroupedNode() throws {
        let text = "( a + b ) * c"
        let root = try #require(parseValid(text))
        guard case .binary(.multiply, let left, _, let op) = root.kind else {
            Issue.record("not *")
            return
        }
        #expect(slice(text, root.range) == text)
        #expect(slice(text, left.range) == "a + b")
        #expect(slice(text, op) == "*")

        let call = "((data)).child('a')"
        let callRoot = try #require(parseValid(call))
        #expect(slice(call, callRoot.range) == call)
    }

    @Test(arguments: [
        ("!a", "!a"),
        ("-  x.y", "-  x.y"),
        ("a ? b : c", "a ? b : c"),
        ("f( 1 , 2 )", "f( 1 , 2 )"),
        ("x[ 'k' ]", "x[ 'k' ]"),
        ("[ 1, 2 ]", "[ 1, 2 ]"),
        ("a && b && c", "a && b && c"),
        ("  /a[/]b/gi  ", "/a[/]b/gi"),
        ("  42  ", "42"),
        ("\"é\" == 'ü'", "\"é\" == 'ü'"),
    ])
    func rootRange(text: String, covered: String) throws {
        let root = try #require(parseValid(text))
        #expect(slice(text, root.range) == covered)
    }

    @Test func idsAreUniqueAndInCreationOrder() throws {
        let text = "a.b(c) && !d[e] || f ? [g, /h/] : 1 + 2 * 3"
        let result = ExpressionParser.parse(text)
        let root = try #require(result.root)
        let nodes = allNodes(root)
        #expect(nodes.count == result.nodeCount)
        #expect(Set(nodes.map(\.id)) == Set(0..<result.nodeCount))
        // A parent is made after its children.
        for node in nodes {
            for child in allNodes(node) where child !== node {
                #expect(child.id < node.id)
            }
        }
        // Source order for leaves.
        let identifiers = nodes.compactMap { node -> (Int, String)? in
            if case .identifier(let name) = node.kind { return (node.id, name) }
            return nil
        }.sorted { $0.0 < $1.0 }.map(\.1)
        #expect(identifiers == ["a", "c", "d", "e", "f", "g"])
    }

    @Test(arguments: [
        ("1", 1.0), ("0", 0.0), ("42", 42.0), ("1.0", 1.0), (".5", 0.5), ("1.", 1.0), ("1e3", 1000.0),
        ("1E+3", 1000.0), ("2.5e-1", 0.25), ("007", 7.0), ("123456789012345678901234567890", 1.2345678901234568e29),
    ])
    func numbers(text: String, value: Double) throws {
        let root = try #require(parseValid(text))
        guard case .number(let parsed) = root.kind else {
            Issue.record("not a number")
            return
        }
        #expect(parsed == value)
    }

    @Test func hugeExponentIsInfinity() throws {
        let root = try #require(parseValid("1e400"))
        guard case .number(let value) = root.kind else { Issue.record("not a number"); return }
        #expect(value == .infinity)
    }

    @Test(arguments: [
        ("'abc'", "abc"),
        ("\"abc\"", "abc"),
        ("''", ""),
        ("'a\"b'", "a\"b"),
        ("\"a'b\"", "a'b"),
        ("'\\''", "'"),
        ("\"\\\"\"", "\""),
        ("'\\\\'", "\\"),
        ("'\\/'", "/"),
        ("'\\n\\r\\t\\b\\f\\v\\0'", "\n\r\t\u{8}\u{C}\u{B}\u{0}"),
        ("'\\x41\\x7e'", "A~"),
        ("'\\u00e9\\u20AC'", "é€"),
        ("'\\u{1F600}'", "😀"),
        ("'\\uD83D\\uDE00'", "😀"),
        ("'\\uD83D'", "\u{FFFD}"),
        ("'\\uD83Dx'", "\u{FFFD}x"),
        ("'\\q\\%'", "q%"),
        ("'\\é'", "é"),
        ("'a\\\nb'", "ab"),
        ("'a\\\r\nb'", "ab"),
        ("'é€😀'", "é€😀"),
        ("'/not a regex/'", "/not a regex/"),
    ])
    func strings(text: String, value: String) throws {
        let root = try #require(parseValid(text))
        guard case .string(let parsed) = root.kind else {
            Issue.record("not a string")
            return
        }
        #expect(parsed == value)
    }

    @Test(arguments: [
        ("/abc/", "abc", ""),
        ("/^\\d+$/", "^\\d+$", ""),
        ("/a\\/b/", "a\\/b", ""),
        ("/[/]/", "[/]", ""),
        ("/[\\]/]x/", "[\\]/]x", ""),
        ("/a/i", "a", "i"),
        ("/a/gimsuy", "a", "gimsuy"),
        ("/é+/", "é+", ""),
        ("/=/", "=", ""),
        ("/*/", "*", ""),
    ])
    func regexLiterals(text: String, pattern: String, flags: String) throws {
        let root = try #require(parseValid(text))
        guard case .regex(let p, let f) = root.kind else {
            Issue.record("not a regex")
            return
        }
        #expect(p == pattern)
        #expect(f == flags)
        #expect(root.range == SourceRange(0, text.utf8.count))
    }

    @Test(arguments: ["auth", "root", "data", "newData", "now", "query", "$uid", "$a_1", "$1", "_x", "this", "foo"])
    func identifiers(text: String) throws {
        let root = try #require(parseValid(text))
        guard case .identifier(let name) = root.kind else {
            Issue.record("not an identifier")
            return
        }
        #expect(name == text)
    }

    @Test func wordLiterals() throws {
        #expect(try #require(parseValid("true")).kind.isBoolean(true))
        #expect(try #require(parseValid("false")).kind.isBoolean(false))
        guard case .null = try #require(parseValid("null")).kind else {
            Issue.record("not null")
            return
        }
    }
}

extension Expression.Kind {
    fileprivate func isBoolean(_ value: Bool) -> Bool {
        if case .boolean(let b) = self { return b == value }
        return false
    }
}
