import RulesRuntime
import RulesTestSupport
import Testing

/// What a reading gives: the stored tree in export JSON (`null` for nothing), or the error.
private typealias Outcome = Result<String, DataError>

private let now = 1_700_000_000_123.0

private func text(_ node: DataNode?) -> String {
    node?.exportJSON(includePriority: true) ?? "null"
}

/// Reads `bytes` with ``DataStreamReader``: chunks of at most `chunkSize` bytes, and a chunk also
/// ends at each of `cuts`.
private func streamed(_ bytes: [UInt8], chunkSize: Int, cuts: [Int] = [], at location: DataPath = .root) -> Outcome {
    var position = 0
    var reader = DataStreamReader(location: location, now: now, chunkSize: chunkSize) { buffer in
        let limit = cuts.first { $0 > position } ?? bytes.count
        let n = min(buffer.count, limit - position)
        buffer.copyBytes(from: bytes[position..<(position + n)])
        position += n
        return n
    }
    do {
        return .success(text(try reader.read()))
    } catch {
        return .failure(error)
    }
}

/// Reads `bytes` the other way: the whole text with ``DataInputReader``, then resolved.
private func whole(_ bytes: [UInt8], at location: DataPath = .root) -> Outcome {
    do {
        return .success(text(try DataInputReader.read(bytes: bytes, at: location).resolved(now: now, existing: nil)))
    } catch {
        return .failure(error)
    }
}

private let inputs: [String] = [
    "42", " -1.5e2 ", "0", "-0", "1E+2", "0.000001", "123456789012345678901234567890", "1.7976931348623157e308", "5e-324",
    #""hi""#, "true", "false", "null", "{}", "[]", " [ ] ", "{\"a\":{}}",
    #"{"a": 1, "b": {"c": true, "d": null}, "e": ""}"#,
    #"[10, "x", [true], null, {"k": []}]"#,
    #"{"é": ["\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t"]}"#,
    #"{"emoji": "😀 ünïcödé 中文", "esc": "\u0000\u001f\u007F\uFFFF"}"#,
    #"{"a": 1, "b": 2, "a": 3}"#, #"{"a": 1, "a": null}"#, #"{"a": null, "a": 1}"#, #"{"a": 1, "a": {}, "b": 2}"#,
    #"{"a": {"x": 1}, "a": {"y": 2}}"#, #"[null, null, 3]"#,
    #"{".sv": "timestamp"}"#, #"{"n": {".sv": {"increment": -2.5}}}"#, #"[{".sv":"timestamp"}]"#,
    #"{"a": {".value": 1, ".priority": 2}}"#, #"{".value": "x", ".priority": "p"}"#, #"{".priority": 5, "a": 1, "b": [1, 2]}"#,
    #"{"a": 1, ".priority": "high"}"#, #"{".priority": null, "a": 1}"#, #"{".priority": 1}"#, #"{".value": null, ".priority": 1}"#,
    #"{".value": {".sv": "timestamp"}, ".priority": {".sv": "timestamp"}}"#, #"{".priority": {".sv": "timestamp"}, "k": "v"}"#,
    #"{"a": {".value": true}}"#, #"{".value": 1, ".value": 2}"#, #"{".sv": {"increment": 1, "increment": 2}}"#,
    #"{"z": 1, "a": 2, "10": 3, "9": 4, "-1": 5, "b": {"y": 0, "x": 1}}"#,
    // Errors.
    "", " ", "{", "[", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "{1: 2}", "[1 2]", "{\"a\": 1} x", "nul", "tru", "01", "1.", "1e", "-", "+1",
    #""abc"#, #"["\x"]"#, #"["\u12"]"#, #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#, #""\ud800\"#, #""\"#, "\"a\nb\"",
    #"{"a.b": 1}"#, #"{"a": {"$x": 1}}"#, #"{".foo": 1}"#, #"{"": 1}"#, #"{".sv": "now"}"#, #"{".sv": "timestamp", "a": 1}"#,
    #"{".value": 1, "a": 2}"#, #"{".value": {"a": 1}}"#, #"{".priority": true, "a": 1}"#, #"{".value": 1, ".priority": [1]}"#,
    #"{"n": 1e400}"#, "-1e999", #"{"a": [1, 2, {"b": 1e999}]}"#,
]

@Suite struct DataStreamReaderTests {
    @Test(arguments: inputs)
    func matchesTheWholeTextReader(input: String) {
        let bytes = Array(input.utf8)
        let expected = whole(bytes)
        for chunkSize in [1, 2, 3, 5, 8, 64, DataStreamReader.defaultChunkSize] {
            #expect(streamed(bytes, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
        }
        // A chunk boundary at every byte position.
        for cut in 0...bytes.count {
            #expect(streamed(bytes, chunkSize: 1 << 16, cuts: [cut]) == expected, "cut at \(cut)")
        }
    }

    @Test func timestampsResolveToTheImportTime() throws {
        let out = try streamed(Array(#"{"t": {".sv": "timestamp"}}"#.utf8), chunkSize: 4).get()
        #expect(out == #"{"t":1700000000123}"#)
    }

    @Test func invalidUTF8AndByteOrderMark() {
        for bytes: [UInt8] in [[0x5B, 0x22, 0xFF, 0x22, 0x5D], [0xEF, 0xBB, 0xBF, 0x31], [0x22, 0x61, 0xC3, 0x22], [0x22, 0xE2, 0x82, 0x22]] {
            for chunkSize in 1...5 {
                #expect(streamed(bytes, chunkSize: chunkSize) == whole(bytes))
            }
        }
        #expect(streamed([0x5B, 0x22, 0xFF, 0x22, 0x5D], chunkSize: 2) == .failure(DataError(message: "Invalid JSON at byte 1: invalid UTF-8 in string.")))
    }

    @Test func limitsAndLocations() {
        func nested(_ levels: Int) -> String {
            String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
        }
        for input in [nested(31), nested(32), String(repeating: "[", count: 1_001) + String(repeating: "]", count: 1_001),
                      #"{".sv": "# + String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000) + "}"] {
            let bytes = Array(input.utf8)
            #expect(streamed(bytes, chunkSize: 7) == whole(bytes))
        }
        let deep = DataPath(keys: (0..<30).map { "k\($0)" })
        for input in [#"{"a": 1}"#, #"{"a": {"b": 1}}"#, "[1]", #"{".value": 1}"#] {
            let bytes = Array(input.utf8)
            #expect(streamed(bytes, chunkSize: 3, at: deep) == whole(bytes, at: deep))
        }
    }

    @Test func stringLengthLimit() {
        let limit = DataLimits.maxStringBytes
        for length in [limit, limit + 1] {
            let bytes = Array(#"{"s": ""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: length) + Array(#""}"#.utf8)
            let expected = whole(bytes)
            #expect(streamed(bytes, chunkSize: 1 << 20) == expected)
            if length > limit {
                #expect(expected == .failure(DataError(message: "String at /s is too long: \(limit + 1) bytes (the limit is \(limit)).", path: DataPath(keys: ["s"]))))
            }
        }
    }

    /// A string past the limit is checked as it goes and not kept: the same error (its whole
    /// length, or its invalid UTF-8 at any point) as the whole-text reader gives, with characters
    /// and escapes across every boundary.
    @Test func stringsPastTheLimitFailAsTheWholeTextReaderDoes() {
        let limit = DataLimits.maxStringBytes
        let unit = Array("ab\\n\\u00e9é😀\\ud83d\\ude00c".utf8)
        var body: [UInt8] = []
        // 29 bytes of JSON for 16 of text: about 1.1 times the limit.
        while body.count < limit / 16 * 29 * 11 / 10 { body += unit }
        let cases: [[UInt8]] = [
            body,
            body + [0xFF],
            Array(body[..<(limit / 2)]) + [0xC3] + Array(body[(limit / 2)...]),
            body + [0x0A],
        ]
        for content in cases {
            let bytes = Array(#"{"s": ""#.utf8) + content + Array(#""}"#.utf8)
            let expected = whole(bytes)
            if case .success = expected { Issue.record("a string past the limit was accepted") }
            for chunkSize in [1 << 20, 65_537] {
                #expect(streamed(bytes, chunkSize: chunkSize) == expected)
            }
        }
    }

    @Test func errorsGiveTheByteOffsetInTheWholeInput() {
        // Members up to a chunk boundary, then a key without its ':' exactly at the boundary, and
        // again just after it.
        let chunkSize = 4_096
        var text = "{"
        var n = 0
        while text.utf8.count < 3 * chunkSize - 20 {
            text += #""k\#(n)": \#(n),"#
            n += 1
        }
        text += String(repeating: " ", count: 3 * chunkSize - 6 - text.utf8.count)
        let good = Array((text + #""end": 1}"#).utf8)
        let bad = Array((text + #""end" 1}"#).utf8)
        #expect(bad[3 * chunkSize - 1] == UInt8(ascii: " ") && bad[3 * chunkSize] == UInt8(ascii: "1"))
        let message = DataError(message: "Invalid JSON at byte \(3 * chunkSize): expected ':' after the key.")
        #expect(whole(bad) == .failure(message))
        for size in [chunkSize, chunkSize - 1, chunkSize + 1, 1 << 20] {
            #expect(streamed(bad, chunkSize: size) == .failure(message), "chunk size \(size)")
            #expect(streamed(good, chunkSize: size) == whole(good))
        }
        let unterminated = Array((text + #""end": "abc"#).utf8)
        #expect(streamed(unterminated, chunkSize: chunkSize) == .failure(DataError(message: "Invalid JSON at byte \(3 * chunkSize + 1): unterminated string.")))
        #expect(whole(unterminated) == streamed(unterminated, chunkSize: chunkSize))
    }

    @Test func randomDocumentsMatchTheWholeTextReader() {
        var random = SplitMix64(seed: 0x5EED_1234)
        for round in 0..<300 {
            var generator = JSONGenerator(random: random)
            let input = generator.value(depth: 0)
            random = generator.random
            let bytes = Array(input.utf8)
            let expected = whole(bytes)
            if case .failure(let error) = expected { Issue.record("round \(round): generated invalid input: \(error) \(input)") }
            for chunkSize in [1, 3, 16, 4_096] {
                #expect(streamed(bytes, chunkSize: chunkSize) == expected, "round \(round), chunk size \(chunkSize): \(input)")
            }
        }
    }

    @Test func randomlyDamagedDocumentsFailAsTheWholeTextReaderDoes() {
        var random = SplitMix64(seed: 0xBAD_5EED)
        let damage: [UInt8] = Array(#"{}[]",:.-+eE0123456789 \tnulltruefalse\u"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0x80]
        for round in 0..<600 {
            var generator = JSONGenerator(random: random)
            var bytes = Array(generator.value(depth: 0).utf8)
            random = generator.random
            guard !bytes.isEmpty else { continue }
            let at = random.below(bytes.count)
            switch random.below(3) {
            case 0: bytes[at] = random.pick(damage)
            case 1: bytes.remove(at: at)
            default: bytes.removeSubrange(at...)
            }
            let expected = whole(bytes)
            for chunkSize in [1, 2, 7, 4_096] {
                #expect(streamed(bytes, chunkSize: chunkSize) == expected, "round \(round), chunk size \(chunkSize): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }
}

/// Random JSON in the shapes exports have: objects (sometimes with repeated keys), arrays,
/// nulls and empty objects, priorities and `.value` leaves, timestamps, escaped and non-ASCII
/// strings, numbers written in every JSON form.
private struct JSONGenerator {
    var random: SplitMix64

    private static let keys = ["a", "b", "c", "key", "10", "9", "-3", "00", "é", "😀", "a b", "push-Nxyz_1"]
    private static let strings = [
        "", "x", "hello world", "é", "😀", "中文", #"quote \" and \\ backslash"#, #"\n\t\r\b\f\/"#, #"\u00e9\ud83d\ude00"#,
        #"\u0000\u001F"#, "long " + String(repeating: "abcdefghij", count: 20),
    ]
    private static let numbers = ["0", "-0", "1", "-1", "42", "3.25", "-0.5", "1e3", "1E-3", "2.5e+10", "12345678901234567890", "0.1", "1e-320"]

    mutating func value(depth: Int) -> String {
        let roll = random.below(depth > 4 ? 6 : 12)
        switch roll {
        case 0: return Self.quoted(random.pick(Self.strings))
        case 1: return random.pick(Self.numbers)
        case 2: return random.chance(0.5) ? "true" : "false"
        case 3: return random.chance(0.3) ? "null" : random.pick(Self.numbers)
        case 4: return #"{".sv": "timestamp"}"#
        case 5: return #"{".value": \#(leaf()), ".priority": \#(priority())}"#
        case 6, 7, 8:
            var members: [String] = []
            for _ in 0..<random.below(6) {
                members.append(Self.quoted(random.pick(Self.keys)) + ": " + value(depth: depth + 1))
            }
            if random.chance(0.2) { members.insert(#"".priority": \#(priority())"#, at: random.below(members.count + 1)) }
            return "{" + members.joined(separator: random.chance(0.5) ? "," : " ,\n ") + "}"
        case 9, 10:
            var elements: [String] = []
            for _ in 0..<random.below(5) { elements.append(value(depth: depth + 1)) }
            return "[" + elements.joined(separator: ", ") + "]"
        default:
            return "{}"
        }
    }

    private mutating func leaf() -> String {
        switch random.below(4) {
        case 0: return Self.quoted(random.pick(Self.strings))
        case 1: return random.pick(Self.numbers)
        case 2: return "true"
        default: return "null"
        }
    }

    private mutating func priority() -> String {
        switch random.below(4) {
        case 0: return Self.quoted(random.pick(Self.strings))
        case 1: return random.pick(Self.numbers)
        case 2: return #"{".sv": "timestamp"}"#
        default: return "null"
        }
    }

    /// `text` between quotes; it is already JSON string content when it holds backslashes.
    private static func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }
}
