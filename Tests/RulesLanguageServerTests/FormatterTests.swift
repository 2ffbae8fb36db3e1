import Foundation
import RulesLanguageServer
import RulesSyntax
import RulesTestSupport
import Testing

@Suite struct FormatterTests {
    @Test func layoutMatchesTheGoldenFile() throws {
        let input = Fixtures.read(Fixtures.golden.appendingPathComponent("format-input.rules.json"))
        let formatted = try #require(RulesFormatter.format(Array(input.utf8)))
        let expected = Fixtures.read(Fixtures.golden.appendingPathComponent("format-expected.rules.json"))
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil {
            try formatted.write(to: Fixtures.golden.appendingPathComponent("format-expected.rules.json"), atomically: true, encoding: .utf8)
        }
        #expect(formatted == expected)
    }

    static let examples = ["blog", "chat", "multitenant", "queries"]

    @Test(arguments: examples)
    func keepsEveryCommentAndTheMeaningOfTheExamples(name: String) throws {
        let url = TestPaths.examples.appendingPathComponent("\(name)/database.rules.json")
        let input = Fixtures.read(url)
        let formatted = try #require(RulesFormatter.format(Array(input.utf8)))
        // Idempotent.
        #expect(RulesFormatter.format(Array(formatted.utf8)) == formatted)
        // Every comment kept, in order.
        func comments(_ text: String) -> [String] {
            text.components(separatedBy: "\n").compactMap { line in
                line.range(of: "//").map { String(line[$0.lowerBound...]).trimmingCharacters(in: .whitespaces) }
            }
        }
        #expect(comments(formatted) == comments(input))
        // The same diagnostics, apart from where they are.
        let before = DocumentChecker.compilerAndLints.check(SourceFile(path: "a", text: input)).map { "\($0.diagnostic.code) \($0.diagnostic.message)" }
        let after = DocumentChecker.compilerAndLints.check(SourceFile(path: "a", text: formatted)).map { "\($0.diagnostic.code) \($0.diagnostic.message)" }
        #expect(before == after)
    }

    @Test(arguments: ["{\"rules\": {", "{\"rules\": {\".read\": \"auth", "{/* open", ""])
    func leavesUnreadableDocumentsAlone(text: String) {
        #expect(RulesFormatter.format(Array(text.utf8)) == nil)
    }

    @Test func usesTheEditorsIndentation() throws {
        let s = Session()
        s.open("{\"rules\": {\".read\": true}}")
        let edits = try #require(s.request("textDocument/formatting", .object([
            ("textDocument", .object([("uri", .string(s.uri))])), ("options", .object([("tabSize", .int(4)), ("insertSpaces", .bool(true))])),
        ]))?.arrayValue)
        #expect(edits.first?["newText"]?.text == "{\n    \"rules\": {\n        \".read\": true\n    }\n}\n")
        #expect(edits.first?["range"]?.rangeText == "0:0-0:26")
    }

    @Test func anAlreadyFormattedDocumentGetsNoEdits() throws {
        let s = Session()
        s.open("{\n  \"rules\": {\n    \".read\": true\n  }\n}\n")
        #expect(s.request("textDocument/formatting", .object([("textDocument", .object([("uri", .string(s.uri))]))]))?.arrayValue?.isEmpty == true)
    }
}
