import Testing

@testable import RulesCompiler
@testable import RulesRuntime
@testable import RulesSyntax

/// A rules file's repeated expressions are parsed and checked once (`ExpressionCache`); every
/// occurrence must still behave, and be reported, as its own.
@Suite struct ExpressionCacheTests {
    /// Each occurrence of a repeated bad expression is reported where it is written.
    @Test func repeatedErrorsAreReportedAtEachOccurrence() {
        let source = """
            {"rules": {
              "a": {".read": "auth.uid == foo"},
              "b": {".read": "auth.uid == foo"},
              "c": {".read": "data.val().matches(/a{2,1}/)"},
              "d": {".read": "data.val().matches(/a{2,1}/)"}
            }}
            """
        let result = RulesCompiler.compile(source: source)
        let file = SourceFile(path: "x", text: source)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 4)
        #expect(errors.map { file.location(of: $0.range).line } == [2, 3, 4, 5])
        #expect(errors[0].message == errors[1].message)
        #expect(errors[2].message == errors[3].message)
    }

    /// A repeated expression maps its file positions to its own occurrence (explanations and
    /// coverage point at the rule that ran).
    @Test func repeatedExpressionsKeepTheirOwnPositions() throws {
        let source = #"{"rules": {"a": {".read": "auth != null"}, "b": {".read": "auth != null"}}}"#
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let ranges = ruleset.rules.compactMap { rule in rule.expression.map { $0.fileRange(of: $0.root) } }
        #expect(ranges.count == 2)
        let text = Array(source.utf8)
        for r in ranges { #expect(String(decoding: text[Int(r.start)..<Int(r.end)], as: UTF8.self) == "auth != null") }
        #expect(ranges[0] != ranges[1])
    }

    /// The same text under other wildcards names other slots: `$a` is the first wildcard in scope
    /// under `/x`, the second under `/$b`.
    @Test func repeatedExpressionsResolveTheirOwnWildcards() throws {
        let source = """
            {"rules": {
              "x": {"$a": {".read": "$a == 'k'"}},
              "$b": {"$a": {".read": "$a == 'k'"}}
            }}
            """
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        #expect(engine.decide(.read(path: "/x/k"), on: nil, now: 0).allowed)
        #expect(!engine.decide(.read(path: "/x/j"), on: nil, now: 0).allowed)
        #expect(engine.decide(.read(path: "/y/k"), on: nil, now: 0).allowed)
        #expect(!engine.decide(.read(path: "/k/y"), on: nil, now: 0).allowed)
    }

    /// The same text as a `.read` and as a `.write` is checked for each kind: `newData` exists
    /// only in writes.
    @Test func repeatedExpressionsAreCheckedForTheirKind() {
        let source = #"{"rules": {"a": {".write": "newData.exists()", ".read": "newData.exists()"}}}"#
        let errors = RulesCompiler.compile(source: source).diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
    }

    /// Texts are repeats only when their bytes are: canonically equivalent spellings of "é" in
    /// an expression or a pattern are different rules.
    @Test func canonicallyEquivalentTextsAreDifferentExpressions() throws {
        let source = #"""
            {"rules": {
              "a": {".write": "newData.val() === '\u00e9' || newData.val().matches(/^x\u00e9$/)"},
              "b": {".write": "newData.val() === 'e\u0301' || newData.val().matches(/^xe\u0301$/)"}
            }}
            """#
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        for (path, allowed, denied) in [("/a", "\u{E9}", "e\u{301}"), ("/b", "e\u{301}", "\u{E9}")] {
            #expect(engine.decide(.set(path: path, value: .string(allowed)), on: nil, now: 0).allowed)
            #expect(!engine.decide(.set(path: path, value: .string(denied)), on: nil, now: 0).allowed)
            #expect(engine.decide(.set(path: path, value: .string("x" + allowed)), on: nil, now: 0).allowed)
            #expect(!engine.decide(.set(path: path, value: .string("x" + denied)), on: nil, now: 0).allowed)
        }
    }
}
