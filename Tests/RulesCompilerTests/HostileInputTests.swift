import RulesTestSupport
import Testing

@testable import RulesCompiler
@testable import RulesSyntax

/// Inputs meant to break a compiler. Each must end in a clear error diagnostic (or, where the
/// input is valid, in a ruleset), never in a crash, a stack overflow or a hang.
@Suite struct HostileInputTests {
    private func compile(_ bytes: [UInt8]) -> (SourceFile, CompilationResult) {
        let file = SourceFile(path: "hostile.rules.json", bytes: bytes)
        return (file, RulesCompiler.compile(file))
    }

    private func compile(_ text: String) -> (SourceFile, CompilationResult) { compile(Array(text.utf8)) }

    /// The first error, after checking that there is one and that no ruleset came out.
    private func firstError(_ result: CompilationResult) throws -> Diagnostic {
        #expect(result.ruleset == nil)
        return try #require(result.diagnostics.first { $0.severity == .error })
    }

    // MARK: - Empty and near-empty files

    @Test(arguments: ["", "   \n\t\n", "// only a comment\n", "/* a block */"])
    func emptyDocument(_ text: String) throws {
        let (file, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .jsonSyntax)
        #expect(d.message.contains("end of the file"))
        #expect(result.tree == nil)
        // The position is the end of the file, on its last line.
        #expect(file.location(of: d.range).line == file.lineStarts.count)
    }

    // MARK: - Garbage

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func binaryGarbage(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let (_, result) = compile(bytes)
        let d = try firstError(result)
        #expect([DiagnosticCode.jsonInvalidUTF8, .jsonSyntax].contains(d.code))
        #expect(result.diagnostics.count <= 2)
    }

    @Test func binaryGarbageStartingWithABraceIsReportedAsInvalidUTF8() throws {
        var rng = SplitMix64(seed: 7)
        let bytes = Array("{\"rules\": {\".read\": \"".utf8) + [0xFF] + (0..<1000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let (file, result) = compile(bytes)
        let d = try firstError(result)
        #expect(d.code == .jsonInvalidUTF8)
        #expect(d.message == "Invalid UTF-8 byte 0xff.")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 22))
    }

    @Test(arguments: [5, 6, 9] as [UInt64])
    func printableGarbage(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("{}[]:,\"'/*\\ \nabc123.-truefalsenull$#".utf8)
        let bytes = (0..<20_000).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
        let (_, result) = compile(bytes)
        let d = try firstError(result)
        #expect(d.code == .jsonSyntax || d.code == .jsonTooDeep)
        #expect(!d.message.isEmpty)
    }

    // MARK: - Deep nesting

    @Test func hundredThousandNestedArrays() throws {
        let n = 100_000
        let text = "{\"rules\": " + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}"
        let (_, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .jsonTooDeep)
        #expect(d.message.contains("Nesting is too deep"))
        #expect(result.diagnostics.count == 1)
    }

    @Test func hundredThousandNestedArraysAtTopLevel() throws {
        let n = 100_000
        let (_, result) = compile(String(repeating: "[", count: n) + String(repeating: "]", count: n))
        let d = try firstError(result)
        #expect(d.code == .jsonTooDeep)
    }

    @Test func hundredThousandUnclosedObjects() throws {
        let (_, result) = compile("{\"rules\": " + String(repeating: "{\"a\": ", count: 100_000))
        let d = try firstError(result)
        #expect(d.code == .jsonTooDeep)
        #expect(d.message.contains("256"))
    }

    @Test func fiftyThousandNestedParentheses() throws {
        let n = 50_000
        let text = "{\"rules\": {\".read\": \"" + String(repeating: "(", count: n) + "true" + String(repeating: ")", count: n) + "\"}}"
        let (file, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .expressionTooDeep)
        #expect(d.message.contains("nested too deeply"))
        #expect(result.diagnostics.count == 1)
        // The expression starts at column 22; the limit is 200 levels, so the 201st '(' is the culprit.
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 222))
    }

    @Test(arguments: ["!", "- ", "[", "data.child(", "1 + "])
    func fiftyThousandNestedOperators(_ unit: String) throws {
        let text = "{\"rules\": {\".write\": \"" + String(repeating: unit, count: 50_000) + "true\"}}"
        let (_, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .expressionTooDeep)
        #expect(d.message.contains("nested too deeply"))
    }

    // MARK: - Huge strings

    @Test func fiveMegabyteValidExpression() throws {
        let text = "{\"rules\": {\".read\": \"'" + String(repeating: "a", count: 5_000_000) + "' == 'b'\"}}"
        let (_, result) = compile(text)
        // Only the size warning: the file is over the documented 256 KB.
        #expect(result.diagnostics.map(\.code) == [.rulesFileLarge])
        #expect(result.ruleset != nil)
        #expect(result.tree?.read != nil)
    }

    @Test func fiveMegabyteInvalidExpression() throws {
        let n = 5_000_000
        let text = "{\"rules\": {\".read\": \"'" + String(repeating: "a", count: n) + "' == foo\"}}"
        let (file, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .unknownVariable)
        #expect(d.message == "Unknown variable 'foo'.")
        // 21 bytes of prefix, the quoted string (n + 2) and " == " (4) come before foo.
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 21 + n + 2 + 4 + 1))
    }

    @Test func fiveMegabyteUnterminatedStringLiteral() throws {
        let text = "{\"rules\": {\".read\": \"'" + String(repeating: "a", count: 5_000_000) + "\"}}"
        let (file, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .expressionSyntax)
        #expect(d.message.contains("Unterminated string"))
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 22))
    }

    @Test func fiveMegabytesOfEscapes() throws {
        // Every character spelled as a six-byte escape: positions must still map to the file.
        let n = 800_000
        let text = "{\"rules\": {\".read\": \"'" + String(repeating: "\\u0061", count: n) + "' == foo\"}}"
        let (file, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .unknownVariable)
        #expect(file.text(of: d.range) == "foo")
        #expect(file.location(of: d.range).column == 21 + 6 * n + 2 + 4 + 1)
    }

    @Test func fiveMegabyteChainOfAdditions() throws {
        // A flat-looking expression whose tree is 2.5 million levels tall.
        let text = "{\"rules\": {\".read\": \"" + String(repeating: "1+", count: 2_500_000) + "1 == 1\"}}"
        let (_, result) = compile(text)
        let d = try firstError(result)
        #expect(d.code == .expressionTooDeep)
    }

    // MARK: - Invalid UTF-8

    @Test(arguments: [
        ([0xFF], "0xff"),  // never valid
        ([0xC0, 0xAF], "0xc0"),  // overlong '/'
        ([0xED, 0xA0, 0x80], "0xed"),  // an encoded UTF-16 surrogate
        ([0xE2, 0x82], "0xe2"),  // truncated by the end of the string
        ([0x80], "0x80"),  // a lone continuation byte
        ([0xF5, 0x80, 0x80, 0x80], "0xf5"),  // beyond U+10FFFF
    ] as [([UInt8], String)])
    func invalidUTF8InARule(bytes: [UInt8], hex: String) throws {
        let input = Array("{\n  \"rules\": {\n    \".read\": \"'".utf8) + bytes + Array("' == 'a'\"\n  }\n}\n".utf8)
        let (file, result) = compile(input)
        let d = try firstError(result)
        #expect(d.code == .jsonInvalidUTF8)
        #expect(d.message == "Invalid UTF-8 byte \(hex).")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 3, column: 16))
        #expect(result.diagnostics.count == 1)
    }

    @Test func invalidUTF8InAKey() throws {
        let input = Array("{\"rules\": {\"".utf8) + [0xFE] + Array("\": {}}}".utf8)
        let (_, result) = compile(input)
        let d = try firstError(result)
        #expect(d.code == .jsonInvalidUTF8)
        #expect(d.range == SourceRange(12, 13))
    }

    @Test func truncatedAtEndOfFile() throws {
        let (_, result) = compile(Array("{\"rules\": {\".read\": \"'".utf8) + [0xE2, 0x82])
        let d = try firstError(result)
        #expect(d.code == .jsonInvalidUTF8)
    }

    // MARK: - Other odd input

    @Test func nulInsideARuleString() throws {
        let (_, result) = compile(Array("{\"rules\": {\".read\": \"true".utf8) + [0] + Array("\"}}".utf8))
        let d = try firstError(result)
        #expect(d.code == .jsonSyntax)
        #expect(d.message.contains("U+0000"))
    }

    @Test func textAfterTheDocument() throws {
        let (_, result) = compile("{\"rules\": {\".read\": \"true\"}} trailing")
        let d = try firstError(result)
        #expect(d.code == .jsonSyntax)
        #expect(d.message.contains("after the top-level value"))
    }

    @Test func hugeNumberAsARule() throws {
        let (_, result) = compile("{\"rules\": {\".read\": 1e400}}")
        let d = try firstError(result)
        #expect(d.code == .invalidRuleValue)
    }

    @Test func manyErrorsAreAllReported() {
        // 10,000 bad rules: every one is reported and nothing is quadratic enough to hang.
        let n = 10_000
        let body = (0..<n).map { "\"k\($0)\": {\".read\": \"foo\($0) == 1\"}" }.joined(separator: ",\n")
        let (_, result) = compile("{\"rules\": {\n" + body + "\n}}")
        #expect(result.ruleset == nil)
        // Plus the size warning: the file is over the documented 256 KB.
        let errors = result.diagnostics.filter { $0.code != .rulesFileLarge }
        #expect(result.diagnostics.count == n + 1)
        #expect(errors.count == n)
        #expect(errors.allSatisfy { $0.code == .unknownVariable })
        #expect(result.diagnostics.last?.message == "Unknown variable 'foo\(n - 1)'.")
    }
}
