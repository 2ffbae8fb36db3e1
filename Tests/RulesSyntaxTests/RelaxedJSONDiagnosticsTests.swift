import Testing
@testable import RulesSyntax

/// Plain JSON: no comments, no trailing commas, no raw line breaks.
private let strict = JSONReaderOptions(
    maxDepth: 256, allowsComments: false, allowsTrailingCommas: false, allowsRawLineBreaksInStrings: false)

/// One input with the single diagnostic it must produce.
struct JSONDiagnosticCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var options: JSONReaderOptions = .rulesFile
    var severity: Severity = .error
    var code: DiagnosticCode
    var message: String
    var line: Int
    var column: Int
    /// Fatal errors leave no root; duplicate keys and trailing commas do not stop the reading.
    var rootIsNil = true

    var testDescription: String { name }

    init(
        _ name: String, _ text: String, options: JSONReaderOptions = .rulesFile, severity: Severity = .error,
        code: DiagnosticCode = .jsonSyntax, _ message: String, at line: Int, _ column: Int, rootIsNil: Bool = true
    ) {
        self.name = name
        self.bytes = Array(text.utf8)
        self.options = options
        self.severity = severity
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.rootIsNil = rootIsNil
    }

    /// A case whose input is raw bytes rather than text.
    static func binary(
        _ name: String, _ bytes: [UInt8], code: DiagnosticCode = .jsonSyntax, _ message: String, at line: Int,
        _ column: Int
    ) -> JSONDiagnosticCase {
        var c = JSONDiagnosticCase(name, "", code: code, message, at: line, column)
        c.bytes = bytes
        return c
    }
}

private let shallow = JSONReaderOptions(
    maxDepth: 3, allowsComments: true, allowsTrailingCommas: true, allowsRawLineBreaksInStrings: true)
private let nested257 = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)

/// Text around raw bytes.
private func quoted(_ before: String, _ bytes: [UInt8], _ after: String) -> [UInt8] {
    Array(before.utf8) + bytes + Array(after.utf8)
}

private let emptyCases: [JSONDiagnosticCase] = [
    // Empty input.
    .init("empty file", "", "Expected a JSON value, found the end of the file.", at: 1, 1),
    .init(
        "only whitespace and comments", "  \n // c\n /* x */ ", "Expected a JSON value, found the end of the file.",
        at: 3, 10),
    .init("only a BOM", "\u{FEFF}", "Expected a JSON value, found the end of the file.", at: 1, 4),
]

private let structureCases: [JSONDiagnosticCase] = [
    // Structure.
    .init(
        "missing comma in object", "{\"a\": 1 x}", "Expected ',' or '}' after an object member, found 'x'.", at: 1, 9),
    .init(
        "missing comma on next line", "{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}",
        "Expected ',' or '}' after an object member, found '\"'.", at: 4, 3),
    .init("missing comma in array", "[1 2]", "Expected ',' or ']' after an array element, found '2'.", at: 1, 4),
    .init("wrong closer for array", "[1}", "Expected ',' or ']' after an array element, found '}'.", at: 1, 3),
    .init("wrong closer for object", "{\"a\": 1]", "Expected ',' or '}' after an object member, found ']'.", at: 1, 8),
    .init("unclosed array", "[1, 2", "Expected ',' or ']' after an array element, found the end of the file.", at: 1, 6),
    .init("unclosed object", "{\"a\": {}\n", "Expected ',' or '}' after an object member, found the end of the file.", at: 2, 1),
    .init("missing colon", "{\"a\" 1}", "Expected ':' after the key 'a', found '1'.", at: 1, 6),
    .init("unquoted key", "{rules: {}}", "Expected a string key or '}', found 'rules'.", at: 1, 2),
    .init("single-quoted key", "{'a': 1}", "Expected a string key or '}', found \"'\".", at: 1, 2),
    .init("bad key after comma", "{\"a\": 1, 2: 3}", "Expected a string key after ',', found '2'.", at: 1, 10),
    .init("missing value", "{\"a\": }", "Expected a JSON value, found '}'.", at: 1, 7),
    .init("empty element", "[1,,2]", "Expected a JSON value, found ','.", at: 1, 4),
    .init("lone comma in array", "[,]", "Expected a JSON value, found ','.", at: 1, 2),
    .init("unknown word", "[tru]", "Expected a JSON value, found 'tru'.", at: 1, 2),
    .init("NaN", "[NaN]", "Expected a JSON value, found 'NaN'.", at: 1, 2),
    .init("Infinity", "{\"x\": Infinity}", "Expected a JSON value, found 'Infinity'.", at: 1, 7),
    .init("text after value", "{}\n}", "Unexpected text after the top-level value.", at: 2, 1),
    .init("second value", "1 2", "Unexpected text after the top-level value.", at: 1, 3),
    .init("lone slash", "[1 / 2]", "Expected ',' or ']' after an array element, found '/'.", at: 1, 4),
    .init("non-ASCII character", "[é]", "Expected a JSON value, found 'é'.", at: 1, 2),
]

private let numberCases: [JSONDiagnosticCase] = [
    // Numbers.
    .init("leading zero", "[01]", "Invalid number '01'.", at: 1, 2),
    .init("negative leading zero", "[-012]", "Invalid number '-012'.", at: 1, 2),
    .init("plus sign", "[+1]", "Invalid number '+1'.", at: 1, 2),
    .init("leading dot", "[.5]", "Invalid number '.5'.", at: 1, 2),
    .init("trailing dot", "[1.]", "Invalid number '1.'.", at: 1, 2),
    .init("empty exponent", "[1e]", "Invalid number '1e'.", at: 1, 2),
    .init("exponent sign only", "[1e+]", "Invalid number '1e+'.", at: 1, 2),
    .init("minus alone", "[-]", "Invalid number '-'.", at: 1, 2),
    .init("minus Infinity", "[-Infinity]", "Invalid number '-Infinity'.", at: 1, 2),
    .init("hex", "[0x10]", "Invalid number '0x10'.", at: 1, 2),
    .init("two dots", "[1.2.3]", "Invalid number '1.2.3'.", at: 1, 2),
]

private let stringCases: [JSONDiagnosticCase] = [
    // Strings.
    .init("unterminated string", "{\"a\": \"abc", "Unterminated string.", at: 1, 7),
    .init("unterminated key", "{\"a", "Unterminated string.", at: 1, 2),
    .init("unterminated after escape", "\"abc\\", "Unterminated string.", at: 1, 1),
    .init("unterminated multi-line", "{\"a\": \"x\n  y\n}\n", "Unterminated string.", at: 1, 7),
    .init("invalid escape", "[\"a\\x\"]", "Invalid escape '\\x' in a string.", at: 1, 4),
    .init("invalid escape of a non-ASCII character", "\"\\é\"", "Invalid escape '\\é' in a string.", at: 1, 2),
    .init(
        "backslash before a line break", "\"a\\\nb\"", "Invalid escape: '\\' followed by a line break in a string.",
        at: 1, 3),
    .init("bad hex digit", "\"\\u12G4\"", "Invalid \\u escape: expected four hex digits, found 'G'.", at: 1, 2),
    .init("short \\u escape", "\"ab\\u12\"", "Invalid \\u escape: expected four hex digits, found '\"'.", at: 1, 4),
    .init(
        "lone high surrogate", "\"\\ud800\"",
        "Lone surrogate '\\ud800' in a string; U+D800 to U+DFFF must come as a high-low pair.", at: 1, 2),
    .init(
        "high surrogate then a plain escape", "[\"x\\uD83D\\u0041\"]",
        "Lone surrogate '\\uD83D' in a string; U+D800 to U+DFFF must come as a high-low pair.", at: 1, 4),
    .init(
        "high surrogate then text", "\"\\uD83Dabc\"",
        "Lone surrogate '\\uD83D' in a string; U+D800 to U+DFFF must come as a high-low pair.", at: 1, 2),
    .init(
        "lone low surrogate", "\"\\uDE00\"",
        "Lone surrogate '\\uDE00' in a string; U+D800 to U+DFFF must come as a high-low pair.", at: 1, 2),
    .init(
        "control character in a string", "{\"a\": \"x\u{01}y\"}",
        "Control character U+0001 inside a string; write '\\u0001' instead.", at: 1, 9),
    .init(
        "control character after an escape", "\"\\n\u{1F}\"",
        "Control character U+001F inside a string; write '\\u001F' instead.", at: 1, 4),
]

private let commentCases: [JSONDiagnosticCase] = [
    // Comments.
    .init("unterminated block comment", "{\n  /* note\n  \"a\": 1 }", "Unterminated block comment.", at: 2, 3),
    .init("unterminated block comment at end", "{} /*", "Unterminated block comment.", at: 1, 4),
    .init("half-closed block comment", "{} /* *", "Unterminated block comment.", at: 1, 4),
]

private let strictCases: [JSONDiagnosticCase] = [
    // Strict options.
    .init("line comment when not allowed", "{} // x", options: strict, "Comments are not allowed.", at: 1, 4),
    .init("block comment when not allowed", "/* x */ {}", options: strict, "Comments are not allowed.", at: 1, 1),
    .init(
        "raw line break when not allowed", "{\"a\": \"x\ny\"}", options: strict,
        "Line break inside a string; write '\\n' instead, or close the string.", at: 1, 9),
    .init(
        "raw CR when not allowed", "\"x\r\ny\"", options: strict,
        "Line break inside a string; write '\\n' instead, or close the string.", at: 1, 3),
    .init(
        "raw tab when not allowed", "\"x\\n\ty\"", options: strict, "Tab inside a string; write '\\t' instead.",
        at: 1, 5),
    .init(
        "trailing comma when not allowed", "[1,\n]", options: strict, code: .jsonTrailingComma, "Trailing comma.", at: 1, 3,
        rootIsNil: false),
]

private let lenientCases: [JSONDiagnosticCase] = [
    // Leniencies that warn or report without stopping.
    .init(
        "trailing comma in array", "[1, 2, ]", severity: .warning, code: .jsonTrailingComma, "Trailing comma.", at: 1, 6,
        rootIsNil: false),
    .init(
        "trailing comma in object", "{\n  \"a\": 1,\n  // done\n}", severity: .warning, code: .jsonTrailingComma,
        "Trailing comma.", at: 2, 9, rootIsNil: false),
    .init(
        "duplicate key", "{\n  \"a\": 1,\n  \"a\": 2\n}", code: .jsonDuplicateKey, "Duplicate key 'a'.", at: 3, 3,
        rootIsNil: false),
    .init(
        "duplicate key after decoding escapes", #"{"ab": 1, "a\u0062": 2}"#, code: .jsonDuplicateKey, "Duplicate key 'ab'.",
        at: 1, 11, rootIsNil: false),
]

private let depthCases: [JSONDiagnosticCase] = [
    // Depth.
    .init(
        "too deep", "[[[[1]]]]",
        options: shallow,
        code: .jsonTooDeep, "Nesting is too deep (more than 3 levels).", at: 1, 4),
    .init(
        "too deep with objects", "{\"a\": [{\"b\": {}}]}",
        options: shallow,
        code: .jsonTooDeep, "Nesting is too deep (more than 3 levels).", at: 1, 14),
    .init(
        "one level over the default", nested257,
        code: .jsonTooDeep, "Nesting is too deep (more than 256 levels).", at: 1, 257),
]

private let utf8Cases: [JSONDiagnosticCase] = [
    // Invalid UTF-8, found before anything else (even inside comments and after syntax errors).
    .binary("0xFF", [0xFF], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xff.", at: 1, 1),
    .binary(
        "truncated two-byte sequence", quoted("{\"a\": \"", [0xC3, 0x28], "\"}"),
        code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xc3.", at: 1, 8),
    .binary(
        "in a comment", quoted("{\n // caf", [0xE9], "\n}"), code: .jsonInvalidUTF8,
        "Invalid UTF-8 byte 0xe9.", at: 2, 8),
    .binary("stray continuation byte", [0x5B, 0x80, 0x5D], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0x80.", at: 1, 2),
    .binary("overlong NUL", [0x22, 0xC0, 0x80, 0x22], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xc0.", at: 1, 2),
    .binary(
        "overlong three-byte", [0x22, 0xE0, 0x80, 0xAF, 0x22], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xe0.",
        at: 1, 2),
    .binary(
        "encoded surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xed.",
        at: 1, 2),
    .binary(
        "above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xf4.",
        at: 1, 2),
    .binary("cut short at the end", [0x22, 0xE2, 0x82], code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xe2.", at: 1, 2),
    .binary(
        "after a syntax error", quoted("{x", [0xFE], ""), code: .jsonInvalidUTF8, "Invalid UTF-8 byte 0xfe.", at: 1, 3),
]

private let garbageCases: [JSONDiagnosticCase] = [
    // Binary garbage.
    .binary(
        "control bytes", [0x00, 0x01, 0x02, 0x03],
        "Expected a JSON value, found the control character U+0000.", at: 1, 1),
    .binary(
        "control byte after a value", quoted("{}", [0x00], ""), "Unexpected text after the top-level value.",
        at: 1, 3),
    .binary(
        "random bytes", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x9C, 0xFF], code: .jsonInvalidUTF8,
        "Invalid UTF-8 byte 0x9c.", at: 1, 9),
]

private let cases: [JSONDiagnosticCase] =
    emptyCases + structureCases + numberCases + stringCases + commentCases + strictCases + lenientCases + depthCases
    + utf8Cases + garbageCases

@Suite struct RelaxedJSONDiagnosticsTests {
    @Test(arguments: cases)
    func diagnostic(_ c: JSONDiagnosticCase) {
        let (file, result) = readJSON(bytes: c.bytes, options: c.options)
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
        guard let d = result.diagnostics.first else { return }
        #expect(d.severity == c.severity)
        #expect(d.code == c.code)
        #expect(d.message == c.message)
        #expect(file.location(of: d.range) == SourceLocation(line: c.line, column: c.column))
        #expect(d.range.end <= Int32(file.bytes.count))
        #expect((result.root == nil) == c.rootIsNil)
    }

    /// Small objects find duplicates by comparing keys, larger ones through a set of keys: the
    /// same answers either side of the switch, canonically equivalent keys included.
    @Test(arguments: [3, 15, 16, 17, 40])
    func duplicateKeysInObjectsOfEverySize(members: Int) throws {
        let keys = (0..<members).map { "k\($0)" }
        // Every key once, then again each key at the start, middle and end, and "é" spelled
        // precomposed then decomposed.
        var text = "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ", ")
        text += #", "é": 1"#
        let again = [keys[0], keys[members / 2], keys[members - 1]]
        text += again.map { ", \"\($0)\": 2" }.joined() + #", "e\u0301": 2}"#
        let (_, result) = readJSON(text)
        #expect(result.diagnostics.map(\.message) == again.map { "Duplicate key '\($0)'." } + ["Duplicate key 'é'."])
        let root = try #require(result.root)
        #expect(root.members?.map(\.key.value) == keys + ["é"])
    }

    @Test func duplicateKeyKeepsTheFirstMemberAndContinues() throws {
        let (file, result) = readJSON(#"{"a": 1, "b": {"x": true, "x": false, "y": null}, "a": [2], "c": 3}"#)
        #expect(result.diagnostics.map(\.message) == ["Duplicate key 'x'.", "Duplicate key 'a'."])
        #expect(result.diagnostics.map { file.text(of: $0.range) } == [#""x""#, #""a""#])
        #expect(result.diagnostics.containsErrors)
        let root = try #require(result.root)
        #expect(root.members?.map(\.key.value) == ["a", "b", "c"])
        #expect(member(root, "a")?.kind == .number(1, text: "1"))
        #expect(member(root, "b")?.members?.map(\.key.value) == ["x", "y"])
        #expect(member(member(root, "b"), "x")?.kind == .bool(true))
    }

    @Test func trailingCommasWarnAndKeepTheValues() throws {
        let (file, result) = readJSON("{\"a\": [1, 2,], \"b\": {\"c\": 3,},}")
        #expect(result.diagnostics.count == 3)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && $0.code == .jsonTrailingComma })
        #expect(result.diagnostics.map { file.text(of: $0.range) } == [",", ",", ","])
        #expect(result.diagnostics.map(\.range.start) == [11, 27, 29])
        let root = try #require(result.root)
        #expect(file.text(of: try #require(member(root, "a")).range) == "[1, 2,]")
        #expect(member(member(root, "b"), "c")?.kind == .number(3, text: "3"))
    }

    @Test func hundredThousandNestedArraysStopAtTheLimit() {
        let (file, result) = readJSON(String(repeating: "[", count: 100_000))
        #expect(result.root == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.code == .jsonTooDeep)
        #expect(result.diagnostics.first?.message == "Nesting is too deep (more than 256 levels).")
        #expect(result.diagnostics.first.map { file.location(of: $0.range) } == SourceLocation(line: 1, column: 257))
    }

    @Test func hundredThousandNestedObjectsStopAtTheLimit() {
        let (_, result) = readJSON(String(repeating: "{\"a\":", count: 100_000))
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.code) == [.jsonTooDeep])
        #expect(result.diagnostics.first?.range == SourceRange(256 * 5, 256 * 5 + 1))
    }

    @Test func deepNestingUnderAHighLimitDoesNotUseTheCallStack() {
        // The reader keeps open containers on the heap, so a limit far beyond what recursion
        // could handle is still read to the end (here: the missing closers).
        let options = JSONReaderOptions(
            maxDepth: 1_000_000, allowsComments: true, allowsTrailingCommas: true, allowsRawLineBreaksInStrings: true)
        let (_, result) = readJSON(String(repeating: "[", count: 100_000), options: options)
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.message) == ["Expected a JSON value, found the end of the file."])
        #expect(result.diagnostics.first?.range == SourceRange.at(100_000))
    }

    @Test func errorAfterAWarningKeepsBoth() {
        let (_, result) = readJSON("[1,] x")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.code) == [.jsonTrailingComma, .jsonSyntax])
        #expect(result.diagnostics.map(\.severity) == [.warning, .error])
    }

    @Test func longWordsAreShortenedInMessages() {
        let (_, result) = readJSON("[" + String(repeating: "x", count: 100) + "]")
        #expect(result.diagnostics.first?.message == "Expected a JSON value, found '\(String(repeating: "x", count: 37))...'.")
        #expect(result.diagnostics.first?.range == SourceRange(1, 101))
    }
}
