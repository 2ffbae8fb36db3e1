import RulesTestSupport
import Testing
@testable import RulesSyntax

/// The height of a tree (a leaf is 1), computed without recursion.
func treeHeight(_ root: Expression) -> Int {
    var tallest = 0
    var stack: [(Expression, Int)] = [(root, 1)]
    while let (node, depth) = stack.popLast() {
        tallest = max(tallest, depth)
        let children: [Expression]
        switch node.kind {
        case .number, .string, .boolean, .null, .regex, .identifier: children = []
        case .array(let items): children = items
        case .member(let object, _, _): children = [object]
        case .index(let a, let b): children = [a, b]
        case .call(let callee, let arguments): children = [callee] + arguments
        case .unary(_, let operand): children = [operand]
        case .binary(_, let a, let b, _): children = [a, b]
        case .logical(_, let operands): children = operands
        case .conditional(let a, let b, let c): children = [a, b, c]
        }
        stack.append(contentsOf: children.map { ($0, depth + 1) })
    }
    return tallest
}

/// Checks what must hold for any input: a tree and no errors, or one error inside the text.
func checkInvariants(_ text: String, limits: ExpressionLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let result = ExpressionParser.parse(text, limits: limits)
    let length = text.utf8.count
    if let root = result.root {
        #expect(result.diagnostics.isEmpty, sourceLocation: sourceLocation)
        #expect(treeHeight(root) <= limits.maxDepth, sourceLocation: sourceLocation)
        #expect(root.range.start >= 0 && Int(root.range.end) <= length, sourceLocation: sourceLocation)
        #expect(allNodes(root).count == result.nodeCount, sourceLocation: sourceLocation)
    } else {
        #expect(result.diagnostics.count == 1, "\(text.debugDescription)", sourceLocation: sourceLocation)
        for d in result.diagnostics {
            #expect(d.severity == .error, sourceLocation: sourceLocation)
            #expect(d.range.start >= 0 && Int(d.range.end) <= length, "\(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }
}

/// A deeply nested input, built when the test runs: `prefix`, then `unit` `count` times, then
/// `suffix`, with the range the error must cover.
struct DeepCase: Sendable, CustomTestStringConvertible {
    var prefix: String
    var unit: String
    var count: Int
    var suffix: String
    var start: Int
    var end: Int

    init(_ prefix: String, _ unit: String, _ count: Int, _ suffix: String, _ start: Int, _ end: Int) {
        (self.prefix, self.unit, self.count, self.suffix, self.start, self.end) = (prefix, unit, count, suffix, start, end)
    }

    var text: String { prefix + String(repeating: unit, count: count) + suffix }
    var testDescription: String { "\(prefix.prefix(20).debugDescription) + \(unit.debugDescription) × \(count)" }
}

private let tooDeep = "Expression is nested too deeply (more than 200 levels)."

@Suite struct ExpressionHostileInputTests {
    /// Repeats `unit` `count` times.
    private func repeated(_ unit: String, _ count: Int) -> String { String(repeating: unit, count: count) }

    @Test(arguments: [
        // Syntactic nesting: the 201st opener is reported.
        DeepCase("", "(", 50_000, "", 200, 201),
        DeepCase("", "(", 50_000, "a" + String(repeating: ")", count: 50_000), 200, 201),
        DeepCase("", "[", 50_000, "", 200, 201),
        DeepCase("", "f(", 50_000, "", 401, 402),
        DeepCase("", "a[", 50_000, "", 401, 402),
        DeepCase("", "a?", 50_000, "", 401, 402),
        DeepCase("", "a ? b : ", 50_000, "c", 1602, 1603),
        // Tree height: the operator that makes the 201st level is reported.
        DeepCase("", "!", 50_000, "a", 199, 200),
        DeepCase("-", " -", 50_000, "1", 398, 399),
        DeepCase("1", "+1", 100_000, "", 399, 400),
        DeepCase("a", ".b", 100_000, "", 399, 400),
        DeepCase("a", "()", 100_000, "", 399, 400),
        DeepCase("a", "[0]", 100_000, "", 598, 599),
        DeepCase("a", " == a", 100_000, "", 997, 999),
        DeepCase("", "a || (", 50_000, "a", 1205, 1206),
    ])
    func nestingIsLimited(deep: DeepCase) {
        let result = ExpressionParser.parse(deep.text)
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.code) == [.expressionTooDeep])
        #expect(result.diagnostics.first?.message == tooDeep)
        #expect(result.diagnostics.first?.range == SourceRange(deep.start, deep.end))
    }

    @Test func exactlyAtTheLimitIsAccepted() throws {
        let parens = ExpressionParser.parse(repeated("(", 200) + "a" + repeated(")", 200))
        #expect(parens.root != nil)
        let nots = try #require(ExpressionParser.parse(repeated("!", 199) + "a").root)
        #expect(treeHeight(nots) == 200)
        let sum = try #require(ExpressionParser.parse("1" + repeated("+1", 199)).root)
        #expect(treeHeight(sum) == 200)
        #expect(ExpressionParser.parse("1" + repeated("+1", 200)).root == nil)
        let members = try #require(ExpressionParser.parse("a" + repeated(".b", 199)).root)
        #expect(treeHeight(members) == 200)
        // Nested calls: each adds a level of nesting and of height.
        let calls = try #require(ExpressionParser.parse(repeated("f(", 100) + "x" + repeated(")", 100)).root)
        #expect(treeHeight(calls) == 101)
    }

    @Test func everyPrecedenceLevelNestedInsideBrackets() throws {
        let unit = "a || b && c == d < e + f * -g.h("
        let text = repeated(unit, 20) + "x" + repeated(")", 20)
        let root = try #require(ExpressionParser.parse(text).root)
        // Eight levels per unit (|| && == < + * - call); the innermost call's callee `g.h` is two.
        #expect(treeHeight(root) == 19 * 8 + 7 + 3)
        let ternaries = repeated("(a ? b : ", 100) + "c" + repeated(")", 100)
        #expect(ExpressionParser.parse(ternaries).root != nil)
    }

    @Test func theParserItselfNeedsNoStackPerLevel() throws {
        // With the limit lifted, 100,000 nested parentheses still parse: the parser keeps its
        // own stacks instead of recursing (the tree is one node, so freeing it is shallow too).
        let huge = ExpressionLimits(maxDepth: 1_000_000, maxLength: 10_000_000)
        let text = repeated("(", 100_000) + "a" + repeated(")", 100_000)
        let root = try #require(ExpressionParser.parse(text, limits: huge).root)
        #expect(root.range == SourceRange(100_000, 100_001))
    }

    @Test func smallerAndLargerLimitsAreHonoured() throws {
        let small = ExpressionLimits(maxDepth: 5, maxLength: 100)
        #expect(ExpressionParser.parse("((((a))))", limits: small).root != nil)
        let over = ExpressionParser.parse("((((((a))))))", limits: small)
        #expect(over.diagnostics.first?.message == "Expression is nested too deeply (more than 5 levels).")
        #expect(over.diagnostics.first?.range == SourceRange(5, 6))
        #expect(ExpressionParser.parse("1+1+1+1+1", limits: small).root != nil)
        #expect(ExpressionParser.parse("1+1+1+1+1+1", limits: small).root == nil)

        let large = ExpressionLimits(maxDepth: 1000, maxLength: 10_000_000)
        let root = try #require(ExpressionParser.parse("1" + repeated("+1", 600), limits: large).root)
        #expect(treeHeight(root) == 601)
    }

    @Test func fiveMegabyteString() throws {
        let text = "'" + repeated("a", 5_000_000) + "' == 'b'"
        let result = ExpressionParser.parse(text)
        let root = try #require(result.root)
        guard case .binary(.equal, let left, _, _) = root.kind, case .string(let value) = left.kind else {
            Issue.record("unexpected shape")
            return
        }
        #expect(value.utf8.count == 5_000_000)
        #expect(root.range == SourceRange(0, text.utf8.count))
    }

    @Test func longFlatLogicalChain() throws {
        let text = "a" + repeated(" && a", 99_999)
        let result = ExpressionParser.parse(text)
        let root = try #require(result.root)
        guard case .logical(.and, let operands) = root.kind else {
            Issue.record("not a flat chain")
            return
        }
        #expect(operands.count == 100_000)
        #expect(result.nodeCount == 100_001)
        #expect(treeHeight(root) == 2)
    }

    @Test func unterminatedEverything() {
        for text in [
            "'", "\"", "/", "(", "[", "a(", "a[", "a.", "a ?", "a ? b :", "!", "-", "'\\", "'\\u", "'\\u{", "'\\x",
            "/[", "/\\", "$", "1e", "a &&", "a ||", "a ==", "\u{2028}", "\u{FEFF}",
        ] {
            let result = ExpressionParser.parse(text)
            #expect(result.root == nil, "\(text.debugDescription)")
            checkInvariants(text)
        }
    }

    @Test func randomBytes() {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            checkInvariants(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func randomTokenSoup() {
        let pieces = [
            "a", "b.c", "1", "2.5", "'s'", "\"t\"", "/r/i", "(", ")", "[", "]", ",", ".", "?", ":", "!", "-", "+", "*",
            "/", "%", "&&", "||", "==", "!==", "<", ">=", " ", "\n", "$x", "f(", "x[", "true", "null", "'\\u00e9'",
            "é", "=", ";", "in", "**", "\\", "'", "/",
        ]
        var rng = SplitMix64(seed: 42)
        let limits = ExpressionLimits(maxDepth: 8, maxLength: 1000)
        var accepted = 0
        for _ in 0..<5000 {
            let count = Int.random(in: 1...25, using: &rng)
            let text = (0..<count).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
            checkInvariants(text, limits: limits)
            if ExpressionParser.parse(text, limits: limits).root != nil { accepted += 1 }
        }
        // The soup is not all rejected, so the accepting paths were exercised too.
        #expect(accepted > 50)
    }

    @Test func everyPrefixOfValidExpressions() {
        let samples = [
            "auth != null && auth.uid == $uid && newData.child('name').isString()",
            "newData.val().matches(/^[A-Z][a-z]+\\/[0-9]{2,}$/i) || data.hasChildren(['a', \"b\"])",
            "(now - 1000 <= newData.val() ? -1 : !root.child('x').exists()) === true",
            "'\\u00e9\\x41\\uD83D\\uDE00' + auth.token['firebase'].identities[0] != \"\\n\"",
        ]
        for sample in samples {
            #expect(ExpressionParser.parse(sample).root != nil)
            var text = ""
            for character in sample {
                text.append(character)
                checkInvariants(text)
            }
        }
    }
}

/// Operators are matched by their exact bytes: a NUL after one is not part of it.
@Suite struct PunctuatorBytesTests {
    @Test func nulAfterAnOperatorIsNotSwallowed() {
        let parsed = ExpressionParser.parse("(\u{0}true)")
        #expect(parsed.root == nil)
        #expect(parsed.diagnostics.first?.range.start == 1)
        // "!" is also the start of "!=" and "!==", so two and three bytes are tried: "!" and a NUL
        // must not pass for a two-byte spelling.
        let negated = ExpressionParser.parse("!\u{0}true")
        #expect(negated.root == nil)
        #expect(negated.diagnostics.first?.range.start == 1)
        let plain = ExpressionParser.parse("(true) === (1 >= 0) && !(2 !== 3)")
        #expect(plain.root != nil)
        #expect(plain.diagnostics.isEmpty)
    }
}
