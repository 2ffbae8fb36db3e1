import Testing
import RulesRuntime

@Suite struct DataInputTests {
    @Test func literals() {
        let v: DataInput = ["a": 1, "b": ["c": true, "d": 2.5, "e": nil, "f": "s"], "g": [1, "x"]]
        #expect(v == .object([
            ("a", .primitive(.number(1))),
            ("b", .object([("c", .bool(true)), ("d", .number(2.5)), ("e", .null), ("f", .string("s"))])),
            ("g", .object([("0", .number(1)), ("1", .string("x"))])),
        ]))
    }

    @Test func equalityIgnoresMemberOrderAndUsesBytes() {
        let a: DataInput = ["x": 1, "y": 2]
        let b: DataInput = ["y": 2, "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != ["x": 1, "y": 3])
        #expect(a != ["x": 1])
        #expect(DataInput.string("\u{E9}") != DataInput.string("e\u{301}"))
        #expect((["\u{E9}": 1] as DataInput) != (["e\u{301}": 1] as DataInput))
        #expect(DataInput.number(0) == DataInput.number(-0.0))
        #expect(DataInput.null != DataInput.object([]))
        #expect(Set<DataInput>([a, b, .timestamp, .increment(1), .increment(2)]).count == 4)
    }

    @Test func wireFormatDescription() {
        let v: DataInput = ["t": .timestamp, "i": .increment(2), "p": .withPriority(1, priority: "x"),
                            "o": .withPriority(["k": true], priority: 3), "n": nil, "s": "q\""]
        #expect(v.description == #"{"t":{".sv":"timestamp"},"i":{".sv":{"increment":2}},"p":{".value":1,".priority":"x"},"o":{"k":true,".priority":3},"n":null,"s":"q\""}"#)
    }

    @Test func descriptionReadsBack() throws {
        let v: DataInput = ["t": .timestamp, "i": .increment(-0.5), "p": .withPriority(1, priority: .timestamp),
                            "o": .withPriority(["k": [true, nil]], priority: "z"), "n": nil]
        #expect(try DataInputReader.read(json: v.description) == v)
    }

    @Test func validateChecksSwiftBuiltValues() throws {
        try (["a": ["b": 1]] as DataInput).validate(at: DataPath(keys: ["x"]))
        #expect(throws: DataError(message: ##"Invalid key "a.b" at /x/a.b: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##, path: DataPath(keys: ["x", "a.b"]))) {
            try (["a.b": 1] as DataInput).validate(at: DataPath(keys: ["x"]))
        }
        #expect(throws: DataError(message: "Number at /n is not finite: inf (numbers must be finite).", path: DataPath(keys: ["n"]))) {
            try (["n": .number(.infinity)] as DataInput).validate(at: .root)
        }
        #expect(throws: DataError(message: "Invalid increment at /: the amount must be a finite number.", path: .root)) {
            try DataInput.increment(.nan).validate(at: .root)
        }
        #expect(throws: DataError(message: #"Invalid priority at /: a priority must be a string, a number, null or {".sv": "timestamp"}, not false."#, path: .root)) {
            try DataInput.withPriority(1, priority: false).validate(at: .root)
        }
        var deep: DataInput = 1
        for _ in 0..<30 { deep = ["k": deep] }
        try deep.validate(at: DataPath(keys: ["a"]))
        #expect(throws: DataError.self) { try deep.validate(at: DataPath(keys: ["a", "b"])) }
    }
}
