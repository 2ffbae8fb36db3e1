import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// One test per limit of `docs/limits.md`: the value, the exact error a user sees just over it,
/// and that input just under it is accepted.
@Suite struct LimitsTests {
    /// The errors (not warnings) of compiling `source`.
    static func errors(_ source: String, limits: ExpressionLimits = .default) -> [String] {
        RulesCompiler.compile(SourceFile(path: "r.json", text: source), expressionLimits: limits)
            .diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    static func messages(_ source: String) -> [String] {
        RulesCompiler.compile(source: source).diagnostics.map(\.message)
    }

    /// A rules file of exactly `size` bytes (padded with spaces).
    static func rulesFile(size: Int) -> String {
        let body = #"{"rules": {".read": true}}"#
        return body + String(repeating: " ", count: size - body.utf8.count)
    }

    // MARK: - Rules files

    @Test func rulesFileDocumentedSize() {
        #expect(RulesFileLimits.documentedBytes == 262_144)
        #expect(Self.messages(Self.rulesFile(size: 262_144)).isEmpty)
        #expect(Self.messages(Self.rulesFile(size: 262_145)) == [
            "The rules file is 262145 bytes, more than the 262144 bytes (256 KB) Firebase documents; the server may refuse it."
        ])
        // Only a warning: the file still compiles.
        #expect(RulesCompiler.compile(source: Self.rulesFile(size: 262_145)).ruleset != nil)
    }

    @Test func rulesFileMaximumSize() {
        #expect(RulesFileLimits.maxBytes == 10_485_760)
        let over = RulesCompiler.compile(source: Self.rulesFile(size: 10_485_761))
        #expect(over.ruleset == nil)
        #expect(over.diagnostics.map(\.message) == ["The rules file is too large (10485761 bytes; the limit is 10485760)."])
        #expect(over.diagnostics.map(\.code) == [.rulesFileTooLarge])
        let at = RulesCompiler.compile(source: Self.rulesFile(size: 10_485_760))
        #expect(at.ruleset != nil)
        #expect(at.diagnostics.map(\.code) == [.rulesFileLarge])
    }

    // MARK: - Rule expressions

    @Test func expressionLength() {
        #expect(ExpressionLimits.default.maxLength == 10_000_000)
        let limits = ExpressionLimits(maxDepth: 200, maxLength: 20)
        let twenty = "auth.uid == 'abcdef'"  // 20 bytes
        #expect(twenty.utf8.count == 20)
        #expect(Self.errors(#"{"rules": {".read": "\#(twenty)"}}"#, limits: limits).isEmpty)
        #expect(Self.errors(#"{"rules": {".read": "\#(twenty) "}}"#, limits: limits) == [
            "Expression is too long (21 bytes; the limit is 20)."
        ])
    }

    @Test func expressionNesting() {
        #expect(ExpressionLimits.default.maxDepth == 200)
        func nested(_ n: Int) -> String {
            #"{"rules": {".read": "\#(String(repeating: "!", count: n))true"}}"#
        }
        // `!` n times over `true` is n + 1 levels.
        #expect(Self.errors(nested(199)).isEmpty)
        #expect(Self.errors(nested(200)) == ["Expression is nested too deeply (more than 200 levels)."])
    }

    // MARK: - The rules file's JSON

    @Test func jsonNesting() {
        #expect(JSONReaderOptions.rulesFile.maxDepth == 256)
        func read(_ n: Int) -> JSONReadResult {
            RelaxedJSONReader.read(SourceFile(path: "f.json", text: String(repeating: "[", count: n) + String(repeating: "]", count: n)))
        }
        #expect(read(256).root != nil)
        #expect(read(256).diagnostics.isEmpty)
        #expect(read(257).root == nil)
        #expect(read(257).diagnostics.map(\.message) == ["Nesting is too deep (more than 256 levels)."])
    }

    // MARK: - Data

    @Test func keyBytes() throws {
        #expect(DataLimits.maxKeyBytes == 768)
        let ok = String(repeating: "é", count: 384)  // 768 bytes
        try DataPath.validate(key: ok, at: [ok])
        #expect(throws: DataPathError.self) { try DataPath.validate(key: ok + "x", at: [ok + "x"]) }
        do {
            try DataPath.validate(key: ok + "x", at: [ok + "x"])
        } catch {
            #expect(error.message == "Key \"\(String(repeating: "é", count: 40))…\" is too long: 769 bytes (the limit is 768).")
        }
        // The same check guards keys inside written values.
        #expect(throws: DataError.self) { try DataInputReader.read(json: "{\"\(ok)x\": 1}") }
        #expect(try DataInputReader.read(json: "{\"\(ok)\": 1}") == .object([(ok, .number(1))]))
    }

    @Test func pathDepth() throws {
        #expect(DataLimits.maxPathLevels == 31)
        let deepest = Array(repeating: "a", count: 31)
        #expect(try DataPath(validating: deepest.joined(separator: "/")).count == 31)
        #expect(throws: DataPathError.self) { try DataPath(validating: (deepest + ["a"]).joined(separator: "/")) }
        do {
            _ = try DataPath(validating: (deepest + ["a"]).joined(separator: "/"))
        } catch {
            #expect(error.message == "Path /\((deepest + ["a"]).joined(separator: "/")) is too deep: 32 levels (the limit is 31).")
        }
        // A written value that would reach below the limit is refused before any rule runs.
        let rules = try #require(RulesCompiler.compile(source: #"{"rules": {".write": true}}"#).ruleset)
        let engine = RulesEngine(ruleset: rules)
        let base = Array(repeating: "a", count: 30).joined(separator: "/")
        #expect(engine.decide(.set(path: base, value: ["b": 1]), on: nil, now: 0).allowed)
        let denied = engine.decide(.set(path: base, value: ["b": ["c": 1]]), on: nil, now: 0)
        #expect(!denied.allowed)
        #expect(denied.reason == "Path /\(base)/b/c is too deep: 32 levels (the limit is 31).")
    }

    @Test func stringBytes() throws {
        #expect(DataLimits.maxStringBytes == 10_485_760)
        let limit = String(repeating: "a", count: 10_485_760)
        try DataInput.string(limit).validate(at: DataPath(keys: ["s"]))
        do {
            try DataInput.string(limit + "a").validate(at: DataPath(keys: ["s"]))
            Issue.record("a string over the limit was accepted")
        } catch {
            #expect(error.message == "String at /s is too long: 10485761 bytes (the limit is 10485760).")
        }
    }

    @Test func readerNesting() throws {
        #expect(DataLimits.maxReaderNesting == 1_000)
        // Only a server value can nest without making a path deeper (its contents are no nodes).
        func sv(_ n: Int) -> String {
            #"{".sv": "# + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}"
        }
        do {
            _ = try DataInputReader.read(json: sv(1_000))
            Issue.record("nesting over the limit was accepted")
        } catch {
            #expect(error.message == "Invalid JSON at byte 1007: nesting deeper than 1000 levels.")
        }
        #expect(throws: DataError.self) { try DataInputReader.read(json: sv(998)) }  // invalid server value, but read
        do { _ = try DataInputReader.read(json: sv(998)) } catch { #expect(!error.message.contains("nesting")) }
    }

    // MARK: - Regular expressions

    @Test func regexRepeatCount() {
        #expect(Self.errors(#"{"rules": {".read": "auth.uid.matches(/^a{65535}$/)"}}"#).isEmpty)
        #expect(Self.errors(#"{"rules": {".read": "auth.uid.matches(/^a{65536}$/)"}}"#) == [
            "number too large in {} quantifier"
        ])
    }

    @Test func regexMatchLimit() throws {
        let rules = try #require(RulesCompiler.compile(source: #"{"rules": {"$k": {".read": "$k.matches(/^(a+)+$/)"}}}"#).ruleset)
        let engine = RulesEngine(ruleset: rules)
        #expect(engine.decide(.read(path: String(repeating: "a", count: 700)), on: nil, now: 0).allowed)
        // Catastrophic backtracking: stopped by the match limit, which fails the rule.
        let d = engine.decide(.read(path: String(repeating: "a", count: 40) + "b"), on: nil, now: 0, explain: true)
        #expect(!d.allowed)
        let error = d.explanation?.evaluations.first.flatMap { e -> String? in
            if case .error(let r) = e.outcome { return r.message }
            return nil
        }
        #expect(error == "matches() gave up: match limit exceeded.")
    }

    // MARK: - Updates

    /// There is no limit on the number of paths in one update (none is documented); each path
    /// obeys the path limits, and the cost is linear in the number of paths.
    @Test func updatePaths() throws {
        let rules = try #require(RulesCompiler.compile(source: #"{"rules": {"$k": {".write": true}}}"#).ruleset)
        let engine = RulesEngine(ruleset: rules)
        let many = (0..<5_000).map { ("k\($0)", DataInput.number(Double($0))) }
        let d = engine.decide(.update(path: "/", values: many), on: nil, now: 0)
        #expect(d.allowed)
        #expect(d.newRoot?.keys.count == 5_000)
        let tooDeep = engine.decide(.update(path: "/k", values: [(Array(repeating: "a", count: 31).joined(separator: "/"), 1)]), on: nil, now: 0)
        #expect(tooDeep.reason == "Path /k/\(Array(repeating: "a", count: 31).joined(separator: "/")) is too deep: 32 levels (the limit is 31).")
    }
}
