import Testing
import RulesRuntime

private let badKeyTail = ##": keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##

/// The error reading `json` throws, or nil (recording an issue) when it does not throw.
private func readError(_ json: String, at location: DataPath = .root) -> DataError? {
    do {
        let value = try DataInputReader.read(json: json, at: location)
        Issue.record("expected an error, read \(value)")
        return nil
    } catch {
        return error
    }
}

@Suite struct DataInputReaderTests {
    @Test func scalarsAndObjects() throws {
        #expect(try DataInputReader.read(json: "42") == .number(42))
        #expect(try DataInputReader.read(json: " -1.5e2 ") == .number(-150))
        #expect(try DataInputReader.read(json: #""hi""#) == .string("hi"))
        #expect(try DataInputReader.read(json: "true") == .bool(true))
        #expect(try DataInputReader.read(json: "false") == .bool(false))
        #expect(try DataInputReader.read(json: "null") == .null)
        #expect(try DataInputReader.read(json: "{}") == .object([]))
        let v = try DataInputReader.read(json: #"{"a": 1, "b": {"c": true, "d": null}, "e": ""}"#)
        #expect(v == ["a": 1, "b": ["c": true, "d": nil], "e": ""])
        #expect(v != ["a": 1, "b": ["c": false, "d": nil], "e": ""])
    }

    @Test func arraysBecomeObjectsKeyedByIndex() throws {
        let v = try DataInputReader.read(json: #"[10, "x", [true], null, {"k": []}]"#)
        #expect(v == .object([
            ("0", .number(10)), ("1", .string("x")), ("2", .object([("0", .bool(true))])),
            ("3", .null), ("4", .object([("k", .object([]))])),
        ]))
        let node = try #require(v.resolved(now: 0, existing: nil))
        #expect(node.keys == ["0", "1", "2"])
    }

    @Test func readsBytesLikeText() throws {
        let text = #"{"é": ["\u00e9\ud83d\ude00\n\"\\\/"]}"#
        #expect(try DataInputReader.read(bytes: Array(text.utf8)) == DataInputReader.read(json: text))
        #expect(try DataInputReader.read(json: text) == ["é": ["é😀\n\"\\/"]])
    }

    @Test func lastDuplicateKeyWins() throws {
        let v = try DataInputReader.read(json: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(v == ["b": 2, "a": 3])
        #expect(v.resolved(now: 0, existing: nil)?.child("a")?.value == .number(3))
    }

    @Test func serverValues() throws {
        #expect(try DataInputReader.read(json: #"{".sv": "timestamp"}"#) == .timestamp)
        #expect(try DataInputReader.read(json: #"{"n": {".sv": {"increment": -2.5}}}"#) == ["n": .increment(-2.5)])
        #expect(try DataInputReader.read(json: #"[{".sv":"timestamp"}]"#) == [.timestamp])
    }

    @Test(arguments: [
        (#"{".sv": "now"}"#, #"Unsupported server value {".sv":"now"} at /: expected {".sv": "timestamp"} or {".sv": {"increment": <number>}}."#, DataPath.root),
        (#"{"a": {".sv": {"increment": "1"}}}"#, #"Unsupported server value {".sv":{"increment":"1"}} at /a: expected {".sv": "timestamp"} or {".sv": {"increment": <number>}}."#, DataPath(keys: ["a"])),
        (#"{"a": {".sv": {"decrement": 1}}}"#, #"Unsupported server value {".sv":{"decrement":1}} at /a: expected {".sv": "timestamp"} or {".sv": {"increment": <number>}}."#, DataPath(keys: ["a"])),
        (#"{".sv": {"increment": 1, "x": 2}}"#, #"Unsupported server value {".sv":{"increment":1,"x":2}} at /: expected {".sv": "timestamp"} or {".sv": {"increment": <number>}}."#, DataPath.root),
        (#"{".sv": ["timestamp"]}"#, #"Unsupported server value {".sv":{"0":"timestamp"}} at /: expected {".sv": "timestamp"} or {".sv": {"increment": <number>}}."#, DataPath.root),
        (#"{"x": {".sv": "timestamp", "y": 1}}"#, #"Invalid server value at /x: ".sv" can't be combined with other members (found "y")."#, DataPath(keys: ["x"])),
    ])
    func invalidServerValues(json: String, message: String, path: DataPath) {
        #expect(readError(json) == DataError(message: message, path: path))
    }

    @Test func priorities() throws {
        #expect(try DataInputReader.read(json: #"{".value": 5, ".priority": "p"}"#) == .withPriority(5, priority: "p"))
        #expect(try DataInputReader.read(json: #"{".priority": 2, "a": 1}"#) == .withPriority(["a": 1], priority: 2))
        #expect(try DataInputReader.read(json: #"{".value": "v"}"#) == "v")
        #expect(try DataInputReader.read(json: #"{".value": 1, ".priority": null}"#) == 1)
        #expect(try DataInputReader.read(json: #"{".value": {".sv": "timestamp"}, ".priority": {".sv": "timestamp"}}"#)
            == .withPriority(.timestamp, priority: .timestamp))
    }

    @Test(arguments: [
        (#"{".priority": true, "a": 1}"#, #"Invalid priority at /: a priority must be a string, a number, null or {".sv": "timestamp"}, not true."#, DataPath.root),
        (#"{"a": {".value": 1, ".priority": {"x": 1}}}"#, #"Invalid priority at /a: a priority must be a string, a number, null or {".sv": "timestamp"}, not {"x":1}."#, DataPath(keys: ["a"])),
        (#"{".value": 1, ".priority": {".sv": {"increment": 1}}}"#, #"Invalid priority at /: a priority must be a string, a number, null or {".sv": "timestamp"}, not {".sv":{"increment":1}}."#, DataPath.root),
        (#"{"a": {".value": 1, "b": 2}}"#, #"Invalid value at /a: ".value" can only be combined with ".priority" (found "b")."#, DataPath(keys: ["a"])),
        (#"{".value": {"b": 2}}"#, #"Invalid value at /: ".value" must be a string, number, boolean, null or server value, not {"b":2}."#, DataPath.root),
    ])
    func invalidPriorityAndValueForms(json: String, message: String, path: DataPath) {
        #expect(readError(json) == DataError(message: message, path: path))
    }

    @Test(arguments: [
        (#"{"users": {"a.b": 1}}"#, #"Invalid key "a.b" at /users/a.b"#, ["users", "a.b"]),
        (#"{"users": {"a/b": 1}}"#, #"Invalid key "a/b" at /users/a/b"#, ["users", "a/b"]),
        (#"{"a": {".foo": 1}}"#, #"Invalid key ".foo" at /a/.foo"#, ["a", ".foo"]),
        (#"{"a": [{"$x": 1}]}"#, #"Invalid key "$x" at /a/0/$x"#, ["a", "0", "$x"]),
        (#"{"tab\there": 1}"#, #"Invalid key "tab\there" at /tab\there"#, ["tab\there"]),
    ])
    func invalidKeysNameTheirPath(json: String, prefix: String, keys: [String]) {
        #expect(readError(json) == DataError(message: prefix + badKeyTail, path: DataPath(keys: keys)))
    }

    @Test func emptyAndLongKeys() {
        #expect(readError(#"{"a": {"": 1}}"#) == DataError(message: #"Invalid key "" at /a/: keys can't be empty."#, path: DataPath(keys: ["a", ""])))
        let long = String(repeating: "k", count: 769)
        #expect(readError("{\"\(long)\": 1}")?.message == "Key \"\(String(repeating: "k", count: 40))…\" is too long: 769 bytes (the limit is 768).")
    }

    /// `{"k": {"k": … 1 …}}` with `levels` keys.
    private func nested(_ levels: Int) -> String {
        String(repeating: #"{"k":"#, count: levels) + "1" + String(repeating: "}", count: levels)
    }

    @Test func depthLimit() throws {
        let ok = try DataInputReader.read(json: nested(31))
        #expect(ok.resolved(now: 0, existing: nil)?.count == 32)
        let error = try #require(readError(nested(32)))
        #expect(error.message == "Path \(String(repeating: "/k", count: 32)) is too deep: 32 levels (the limit is 31).")
        #expect(error.path?.count == 32)
        // The write location counts: 29 levels below /a/b reach 31.
        let location = DataPath(keys: ["a", "b"])
        _ = try DataInputReader.read(json: nested(29), at: location)
        #expect(readError(nested(30), at: location)?.path?.count == 32)
        // Arrays count as levels too.
        let arrays = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        #expect(readError(arrays)?.message.hasSuffix("is too deep: 32 levels (the limit is 31).") == true)
    }

    @Test func readerNestingCap() throws {
        // Inside ".sv" keys are not levels, so only the reader's own cap stops this.
        let json = #"{".sv": "# + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}"
        #expect(readError(json) == DataError(message: "Invalid JSON at byte 1007: nesting deeper than 1000 levels."))
        // Unclosed input that deep is also rejected, not overflowed.
        #expect(readError(#"{".priority": "# + String(repeating: "[", count: 100_000))?.message
            == "Invalid JSON at byte 1013: nesting deeper than 1000 levels.")
    }

    @Test func stringLengthLimit() throws {
        let limit = DataLimits.maxStringBytes
        let atLimit = "{\"s\": \"" + String(repeating: "x", count: limit) + "\"}"
        #expect(try DataInputReader.read(json: atLimit) != .null)
        let over = "{\"s\": \"" + String(repeating: "x", count: limit + 1) + "\"}"
        #expect(readError(over) == DataError(message: "String at /s is too long: 10485761 bytes (the limit is 10485760).", path: DataPath(keys: ["s"])))
    }

    @Test(arguments: [
        ("", "Invalid JSON at byte 0: expected a value."),
        ("   ", "Invalid JSON at byte 3: expected a value."),
        (#"{"a" 1}"#, "Invalid JSON at byte 5: expected ':' after the key."),
        (#"{"a":1,}"#, "Invalid JSON at byte 7: expected a string key."),
        (#"{a:1}"#, "Invalid JSON at byte 1: expected a string key."),
        (#"{"a":1 "b":2}"#, "Invalid JSON at byte 7: expected ',' or '}' after an object member."),
        ("[1 2]", "Invalid JSON at byte 3: expected ',' or ']' after an array element."),
        ("[1,]", "Invalid JSON at byte 3: expected a value."),
        ("[1", "Invalid JSON at byte 2: expected ',' or ']' after an array element."),
        ("1 2", "Invalid JSON at byte 2: unexpected text after the value."),
        ("// c\n1", "Invalid JSON at byte 0: expected a value."),
        ("NaN", "Invalid JSON at byte 0: expected a value."),
        ("tru", "Invalid JSON at byte 0: expected a value."),
        ("01", "Invalid JSON at byte 0: invalid number (leading zero)."),
        ("1.", "Invalid JSON at byte 0: invalid number (expected a digit after '.')."),
        ("1e", "Invalid JSON at byte 0: invalid number (expected a digit in the exponent)."),
        ("-", "Invalid JSON at byte 0: invalid number."),
        ("+1", "Invalid JSON at byte 0: expected a value."),
        (#""abc"#, "Invalid JSON at byte 0: unterminated string."),
        (#"["\x"]"#, "Invalid JSON at byte 2: invalid escape sequence."),
        (#"["\u12"]"#, #"Invalid JSON at byte 2: invalid \u escape."#),
        (#""\ud800""#, #"Invalid JSON at byte 1: invalid \u escape (unpaired surrogate)."#),
        (#""\udc00x""#, #"Invalid JSON at byte 1: invalid \u escape (unpaired surrogate)."#),
        ("\"a\nb\"", "Invalid JSON at byte 2: control character in string (it must be escaped)."),
    ])
    func invalidJSON(json: String, message: String) {
        #expect(readError(json) == DataError(message: message))
    }

    @Test func invalidUTF8() {
        #expect(throws: DataError(message: "Invalid JSON at byte 1: invalid UTF-8 in string.")) {
            try DataInputReader.read(bytes: [0x5B, 0x22, 0xFF, 0x22, 0x5D])
        }
        #expect(throws: DataError(message: "Invalid JSON at byte 0: expected a value.")) {
            try DataInputReader.read(bytes: [0xEF, 0xBB, 0xBF, 0x31])
        }
    }

    @Test func numbersMustBeFinite() {
        #expect(readError(#"{"n": 1e400}"#) == DataError(message: "Number 1e400 at /n is out of range (numbers must be finite doubles).", path: DataPath(keys: ["n"])))
        #expect(readError("-1e999")?.path == .root)
    }
}
