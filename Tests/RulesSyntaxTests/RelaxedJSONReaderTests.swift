import Testing
@testable import RulesSyntax

/// Reads `text` as a file named `test.json`.
func readJSON(_ text: String, options: JSONReaderOptions = .rulesFile) -> (file: SourceFile, result: JSONReadResult) {
    let file = SourceFile(path: "test.json", text: text)
    return (file, RelaxedJSONReader.read(file, options: options))
}

/// Reads raw bytes as a file named `test.json`.
func readJSON(bytes: [UInt8], options: JSONReaderOptions = .rulesFile) -> (file: SourceFile, result: JSONReadResult) {
    let file = SourceFile(path: "test.json", bytes: bytes)
    return (file, RelaxedJSONReader.read(file, options: options))
}

/// The value of `key` in an object node.
func member(_ node: JSONNode?, _ key: String) -> JSONNode? {
    node?.members?.first { $0.key.value == key }?.value
}

@Suite struct RelaxedJSONReaderTests {
    @Test(arguments: [
        ("true", JSONNode.Kind.bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        ("\"\"", .string(JSONString(value: "", range: SourceRange(0, 2)))),
        ("\"héllo\"", .string(JSONString(value: "héllo", range: SourceRange(0, 8)))),
    ])
    func scalars(text: String, kind: JSONNode.Kind) {
        let (_, result) = readJSON("  \(text)\n")
        #expect(result.diagnostics.isEmpty)
        // The range covers the value only, not the surrounding whitespace.
        #expect(result.root == JSONNode(shifted(kind, by: 2), range: SourceRange(2, 2 + text.utf8.count)))
    }

    private func shifted(_ kind: JSONNode.Kind, by delta: Int32) -> JSONNode.Kind {
        guard case .string(var s) = kind else { return kind }
        s.range = SourceRange(start: s.range.start + delta, end: s.range.end + delta)
        return .string(s)
    }

    @Test(arguments: [
        ("0", 0.0), ("12", 12), ("-12", -12), ("0.5", 0.5), ("-12.5e3", -12500), ("1E+2", 100), ("1e-2", 0.01),
        ("123456789012345", 123_456_789_012_345), ("12345678901234567890", 12_345_678_901_234_567_890.0),
        ("9007199254740993", 9_007_199_254_740_992), ("1e400", .infinity), ("-1e400", -.infinity), ("1e-400", 0),
    ])
    func numbers(text: String, value: Double) {
        let (_, result) = readJSON("[\(text)]")
        #expect(result.diagnostics.isEmpty)
        let element = result.root.flatMap { if case .array(let a) = $0.kind { a.first } else { nil } }
        #expect(element?.kind == .number(value, text: text))
        #expect(element?.range == SourceRange(1, 1 + text.utf8.count))
    }

    @Test func negativeZeroKeepsItsSign() {
        let (_, result) = readJSON("-0")
        guard case .number(let v, let text)? = result.root?.kind else {
            Issue.record("not a number")
            return
        }
        #expect(v == 0 && v.sign == .minus)
        #expect(text == "-0")
    }

    @Test func objectMembersKeepSourceOrderAndRanges() {
        let text = #"{"b": 1, "a": [true, null], "c": {}}"#
        let (file, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        let root = result.root
        #expect(root?.range == SourceRange(0, text.utf8.count))
        #expect(root?.members?.map(\.key.value) == ["b", "a", "c"])
        let a = member(root, "a")
        #expect(a.map { file.text(of: $0.range) } == "[true, null]")
        #expect((root?.members?[1]).map { file.text(of: $0.key.range) } == #""a""#)
        #expect(member(root, "c") == JSONNode(.object([]), range: SourceRange(33, 35)))
        guard case .array(let items)? = a?.kind else {
            Issue.record("not an array")
            return
        }
        #expect(items.map { file.text(of: $0.range) } == ["true", "null"])
    }

    @Test func commentsWhereverWhitespaceMayStand() {
        let text = "/*a*/{//b\n\"x\"/*c*/:/*d*/[1/*e*/,//f\n2]/*g*/, \"s\": \"//not /* a comment\"}//h"
        let (file, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.root.map { file.text(of: $0.range) }?.hasPrefix("{//b") == true)
        #expect(result.root?.members?.map(\.key.value) == ["x", "s"])
        #expect(member(result.root, "s")?.string?.value == "//not /* a comment")
        #expect(member(result.root, "x").map { file.text(of: $0.range) } == "[1/*e*/,//f\n2]")
    }

    @Test func lineCommentAtEndOfFileWithoutLineBreak() {
        let (_, result) = readJSON("{} // done")
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.range == SourceRange(0, 2))
    }

    @Test func byteOrderMarkIsSkipped() {
        let (_, result) = readJSON(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.range == SourceRange(3, 11))
        #expect(member(result.root, "a")?.range == SourceRange(9, 10))
    }

    @Test func crlfLineBreaksInsideAndOutsideStrings() {
        let text = "{\r\n  \"a\": \"x &&\r\n  y\",\r\n  \"b\": true\r\n}\r\n"
        let (file, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        let a = result.root?.members?.first
        #expect(a.map { file.location(of: $0.key.range) } == SourceLocation(line: 2, column: 3))
        // The raw line break is kept as it is, so decoded offsets stay identical to file offsets.
        #expect(a?.value.string?.value == "x &&\r\n  y")
        #expect(a?.value.string?.checkpoints == [])
        let b = result.root?.members?.last
        #expect(b.map { file.location(of: $0.key.range) } == SourceLocation(line: 4, column: 3))
        #expect(b.map { file.location(of: $0.value.range) } == SourceLocation(line: 4, column: 8))
    }

    @Test func simpleEscapesDecode() {
        let text = #""a\"b\\c\/d\be\ff\ng\rh\ti""#
        let (_, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        let s = result.root?.string
        #expect(s?.value == "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti")
        #expect(s?.range == SourceRange(0, text.utf8.count))
        #expect(s?.checkpoints.count == 8)
        #expect(s?.checkpoints.first == JSONString.Checkpoint(decoded: 1, source: 2, decodedLength: 1, sourceLength: 2))
        #expect(s?.checkpoints.last == JSONString.Checkpoint(decoded: 15, source: 23, decodedLength: 1, sourceLength: 2))
    }

    @Test func unicodeEscapesAndSurrogatePairs() {
        // é (U+00E9), € (U+20AC), 😀 (U+1F600 as a pair), NUL.
        let text = #"["\u00e9", "\u20AC", "\uD83D\uDE00", "\u0000"]"#
        let (_, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        guard case .array(let items)? = result.root?.kind else {
            Issue.record("not an array")
            return
        }
        #expect(items.compactMap(\.string?.value) == ["é", "€", "😀", "\u{0}"])
        #expect(items.compactMap(\.string?.checkpoints.first) == [
            .init(decoded: 0, source: 2, decodedLength: 2, sourceLength: 6),
            .init(decoded: 0, source: 12, decodedLength: 3, sourceLength: 6),
            .init(decoded: 0, source: 22, decodedLength: 4, sourceLength: 12),
            .init(decoded: 0, source: 38, decodedLength: 1, sourceLength: 6),
        ])
    }

    @Test func escapeMapGivesExactFileOffsets() throws {
        // Multi-byte characters, raw and escaped, between escapes of different lengths.
        let text = "{\"k\": \"é\\nx\\u00e9y€\\uD83D\\uDE00z\\\\w\\\"v\"}"
        let (file, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        let s = try #require(member(result.root, "k")?.string)
        #expect(s.value == "é\nxéy€😀z\\w\"v")
        #expect(s.checkpoints.count == 5)
        let decoded = Array(s.value.utf8)
        let source = file.bytes

        // Each plain decoded byte maps to the identical byte in the file; each byte an escape
        // produced maps to that escape's backslash.
        for offset in decoded.indices {
            let mapped = s.sourceOffset(ofDecoded: offset)
            if let cp = s.checkpoints.first(where: { $0.decoded <= offset && offset < $0.decoded + $0.decodedLength }) {
                #expect(mapped == Int(cp.source))
                #expect(source[mapped] == UInt8(ascii: "\\"))
            } else {
                #expect(source[mapped] == decoded[offset], "decoded offset \(offset)")
            }
        }

        // Spot checks. Decoded: é 0-1, \n 2, x 3, é 4-5, y 6, € 7-9, 😀 10-13, z 14, \\ 15, w 16, " 17, v 18.
        // File: content from 7: é 7-8, \n 9-10, x 11, \u00e9 12-17, y 18, € 19-21, pair 22-33, z 34,
        // \\ 35-36, w 37, \" 38-39, v 40, closing quote 41.
        let expected: [(decoded: Int, source: Int)] = [
            (0, 7), (1, 8), (3, 11), (6, 18), (7, 19), (9, 21), (14, 34), (16, 37), (18, 40), (19, 41),
            // Inside the output of an escape: its backslash.
            (2, 9), (4, 12), (5, 12), (10, 22), (13, 22), (15, 35), (17, 38),
        ]
        for (d, source) in expected {
            #expect(s.sourceOffset(ofDecoded: d) == source, "decoded offset \(d)")
        }
        #expect(s.sourceRange(ofDecoded: SourceRange(decoded.count - 1, decoded.count)).start == s.range.end - 2)
    }

    @Test func stringsWithoutEscapesHaveNoCheckpoints() {
        let (_, result) = readJSON("\"a\tb\nc ☃\"")
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.string?.value == "a\tb\nc ☃")
        #expect(result.root?.string?.checkpoints == [])
        #expect(result.root?.string?.sourceOffset(ofDecoded: 6) == 7)
    }

    @Test func realisticRulesFile() throws {
        let text = """
            /* Default rules, edited. */
            {
              "rules": {
                // Only signed-in users read.
                ".read": "auth != null",
                "users": {
                  "$uid": {
                    ".write": "auth != null &&
                      auth.uid === $uid",
                    ".validate": "newData.hasChildren(['name', 'age'])",
                    ".indexOn": ["name", "age"],
                    "age": { ".validate": "newData.isNumber() && newData.val() >= 0" }
                  }
                }
              }
            }

            """
        let (file, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(file.location(of: root.range) == SourceLocation(line: 2, column: 1))
        #expect(file.text(of: root.range).hasSuffix("}\n  }\n}"))
        let rules = try #require(member(root, "rules"))
        #expect(rules.members?.map(\.key.value) == [".read", "users"])
        let uid = try #require(member(member(rules, "users"), "$uid"))
        #expect(uid.members?.map(\.key.value) == [".write", ".validate", ".indexOn", "age"])

        let write = try #require(member(uid, ".write"))
        #expect(file.text(of: write.range) == "\"auth != null &&\n          auth.uid === $uid\"")
        #expect(write.string?.value == "auth != null &&\n          auth.uid === $uid")
        #expect(file.location(of: write.range) == SourceLocation(line: 8, column: 19))
        // `$uid` inside the multi-line expression maps to line 9 of the file.
        let expression = try #require(write.string)
        let dollar = try #require(expression.value.utf8.firstIndex(of: UInt8(ascii: "$")))
        let decoded = expression.value.utf8.distance(from: expression.value.utf8.startIndex, to: dollar)
        #expect(file.location(of: expression.sourceOffset(ofDecoded: decoded)) == SourceLocation(line: 9, column: 24))

        let indexOn = try #require(member(uid, ".indexOn"))
        #expect(file.text(of: indexOn.range) == #"["name", "age"]"#)
        let age = try #require(member(uid, "age"))
        #expect(file.text(of: age.range) == #"{ ".validate": "newData.isNumber() && newData.val() >= 0" }"#)
        #expect(uid.members?.last.map { file.text(of: $0.key.range) } == #""age""#)
    }

    @Test func largeStringIsRead() throws {
        let count = 5_000_000
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count + 2)
        bytes[0] = UInt8(ascii: "\"")
        bytes[count + 1] = UInt8(ascii: "\"")
        let (_, result) = readJSON(bytes: bytes)
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.string?.value.utf8.count == count)
        #expect(result.root?.range == SourceRange(0, count + 2))
    }

    @Test func largeStringWithEscapeAtTheEndIsRead() throws {
        let count = 5_000_000
        // ["\tbbb...bbb\n"]
        var bytes = [UInt8](repeating: UInt8(ascii: "b"), count: count + 8)
        bytes.replaceSubrange(0..<4, with: Array("[\"\\t".utf8))
        bytes.replaceSubrange((count + 4)..., with: Array("\\n\"]".utf8))
        let (_, result) = readJSON(bytes: bytes)
        #expect(result.diagnostics.isEmpty)
        guard case .array(let items)? = result.root?.kind, let s = items.first?.string else {
            Issue.record("not an array of a string")
            return
        }
        #expect(s.value.utf8.count == count + 2)
        #expect(s.value.hasPrefix("\tbbb") && s.value.hasSuffix("bbb\n"))
        #expect(s.checkpoints.last == .init(decoded: Int32(count + 1), source: Int32(count + 4), decodedLength: 1, sourceLength: 2))
    }

    @Test func nestingUpToTheLimitIsAccepted() {
        let depth = JSONReaderOptions.rulesFile.maxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let (_, result) = readJSON(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.range == SourceRange(0, 2 * depth))
    }
}
