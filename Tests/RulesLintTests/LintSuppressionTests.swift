import Testing

@testable import RulesCompiler
@testable import RulesLint
@testable import RulesSyntax

@Suite struct LintSuppressionTests {
    private func lint(_ text: String) -> [LintFinding] {
        let file = SourceFile(path: "t.json", text: text)
        return Linter.lint(RulesCompiler.compile(file), file: file)
    }

    @Test func nextLineSkipsCommentsAndBlanks() {
        let text = """
            {
              "rules": {
                // rules-lint-disable-next-line public-read -- intended
                /* another comment */

                ".read": true
              }
            }
            """
        #expect(lint(text).isEmpty)
    }

    @Test func sameLine() {
        let text = """
            {"rules": {
              ".read": true, // rules-lint-disable-line public-read
              "a": {"$b": {".write": "auth != null"}}
            }}
            """
        #expect(lint(text).map(\.code) == [.unvalidatedWrite])
    }

    @Test func onlyTheNamedCodes() {
        let text = """
            {"rules": {
              // rules-lint-disable-next-line shadowed-rule
              ".read": true
            }}
            """
        // The comment hides nothing, so it is reported too.
        #expect(lint(text).map(\.code) == [.unusedSuppression, .publicRead])
    }

    @Test func nodeCoversTheWholeSubtree() {
        let text = """
            {"rules": {
              // rules-lint-disable-node unvalidated-write, public-write
              "legacy": {
                "$a": {".write": "auth != null"},
                "b": {"$c": {".write": true}}
              },
              "fresh": {"$a": {".write": "auth != null"}}
            }}
            """
        let found = lint(text)
        #expect(found.map(\.code) == [.unvalidatedWrite])
        #expect(found.first?.anchor == "/fresh/$a .write")
    }

    @Test func unknownCodeIsReportedAtTheName() throws {
        let text = "{\"rules\": {\n  // rules-lint-disable-next-line public-read, pubic-write\n  \".read\": true\n}}"
        let found = lint(text)
        #expect(found.map(\.code) == [.unknownLintCode])
        let f = try #require(found.first)
        let file = SourceFile(path: "t.json", text: text)
        #expect(file.text(of: f.diagnostic.range) == "pubic-write")
    }

    @Test func unusedSuppressionIsReportedAtTheCode() throws {
        let text = "{\"rules\": {\n  // rules-lint-disable-next-line public-read, public-write\n  \".read\": true\n}}"
        let found = lint(text)
        #expect(found.map(\.code) == [.unusedSuppression])
        let f = try #require(found.first)
        let file = SourceFile(path: "t.json", text: text)
        #expect(file.text(of: f.diagnostic.range) == "public-write")
        #expect(f.diagnostic.message.contains("names public-write"))
    }

    @Test func unusedSuppressionOfADisabledLintIsNotReported() throws {
        let text = "{\"rules\": {\n  // rules-lint-disable-next-line shadowed-rule\n  \".read\": \"auth != null\"\n}}"
        let file = SourceFile(path: "t.json", text: text)
        let result = RulesCompiler.compile(file)
        #expect(Linter.lint(result, file: file).map(\.code) == [.unusedSuppression])
        let off = try LintConfiguration.from(enable: [], disable: ["shadowed-rule"])
        #expect(Linter.lint(result, file: file, configuration: off).isEmpty)
        let quiet = try LintConfiguration.from(enable: [], disable: ["unused-suppression"])
        #expect(Linter.lint(result, file: file, configuration: quiet).isEmpty)
    }

    @Test func aNodeSuppressionIsUsedByAnyFindingInside() {
        let text = """
            {"rules": {
              // rules-lint-disable-node unvalidated-write
              "a": {"b": {"$c": {".write": "auth != null"}}}
            }}
            """
        #expect(lint(text).isEmpty)
    }

    @Test func commentMarkersInsideStringsAreIgnored() {
        // The `//` inside the rule string is not a comment.
        let text = #"{"rules": {".read": "auth != null && 'a//rules-lint-disable-line public-read' != ''", "x": {".read": true}}}"#
        #expect(lint(text).map(\.code) == [.publicRead])
    }

    @Test func wordPrefixIsNotASuppression() {
        let text = "{\"rules\": {\n  // rules-lint-disable-next-lines public-read\n  \".read\": true\n}}"
        #expect(lint(text).map(\.code) == [.publicRead])
    }

    // MARK: - Baselines

    @Test func baselineRoundTripHidesKnownFindingsOnly() throws {
        let old = doc(#""a": {"$b": {".write": "auth != null"}}"#)
        let file = SourceFile(path: "t.json", text: old)
        let findings = Linter.lint(RulesCompiler.compile(file), file: file)
        #expect(findings.count == 1)
        let baseline = LintBaseline(findings: [("./t.json", findings)])
        let reread = try LintBaseline.parse(baseline.rendered())
        #expect(reread == baseline)
        #expect(reread.entries.first?.file == "t.json")
        // The same finding on another line, plus a new one.
        let edited = "{\"rules\": {\n\n\n  \"z\": {\"$y\": {\".write\": \"auth != null\"}},\n  \"a\": {\"$b\": {\".write\": \"auth != null\"}}}}"
        let editedFile = SourceFile(path: "t.json", text: edited)
        let now = Linter.lint(RulesCompiler.compile(editedFile), file: editedFile)
        #expect(now.count == 2)
        let fresh = reread.newFindings(now, file: "t.json")
        #expect(fresh.map(\.anchor) == ["/z/$y .write"])
        #expect(reread.newFindings(now, file: "other.json").count == 2)
    }

    @Test func baselineCountsDuplicates() throws {
        let f = LintFinding(code: .constantRule, message: "m", range: .at(0), anchor: "/ .read")
        let baseline = LintBaseline(findings: [("t.json", [f])])
        #expect(baseline.newFindings([f, f], file: "t.json").count == 1)
    }

    @Test func malformedBaselinesAreErrors() {
        #expect(throws: LintBaselineError.self) { try LintBaseline.parse("[]") }
        #expect(throws: LintBaselineError.self) { try LintBaseline.parse("{\"findings\": [{\"file\": 1}]}") }
        #expect(throws: LintBaselineError.self) { try LintBaseline.parse("{") }
    }

    @Test func baselineEscapesStrings() throws {
        let b = LintBaseline(entries: [.init(file: "a \"b\".json", code: "x", path: "/\\", message: "line\nbreak\u{1}")])
        #expect(try LintBaseline.parse(b.rendered()) == b)
    }
}
