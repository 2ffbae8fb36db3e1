import Foundation
import RulesLanguageServer
import RulesSyntax
import RulesTestSupport
import Testing

/// Random edits of the bundled examples (a range deleted, or replaced by rules punctuation and
/// names), each followed by every feature at a random position: the server answers each one and
/// keeps the client's text exactly.
@Suite struct RandomEditTests {
    static let fragments = ["", "\"", "'", "{", "}", "[", "]", ":", ",", ".", "(", ")", "$", "/*", "//", "\n", "auth.", "data.child('", "😀", "é", "\\"]

    @Test(arguments: FormatterTests.examples)
    func everyAnswerComesBackAfterRandomEdits(name: String) throws {
        var text = Fixtures.read(TestPaths.examples.appendingPathComponent("\(name)/database.rules.json"))
        var random = SplitMix64(seed: UInt64(name.utf8.count) * 7919)
        let s = Session()
        s.open(text)
        let document: JSONText = .object([("uri", .string(s.uri))])
        for round in 0..<60 {
            // A range of whole characters, as UTF-16 positions.
            let lines = text.components(separatedBy: "\n")
            let line = random.below(lines.count)
            let characters = Array(lines[line])
            let a = random.below(characters.count + 1), b = min(characters.count, a + random.below(4))
            let start = String(characters[..<a]).utf16.count, end = String(characters[..<b]).utf16.count
            let insert = random.pick(Self.fragments)
            s.change((line, start, line, end), insert, version: round + 2)
            var edited = lines
            edited[line] = String(characters[..<a]) + insert + String(characters[b...])
            text = edited.joined(separator: "\n")
            #expect(s.server.documentText(s.uri) == text)
            _ = s.server.pendingDiagnostics()
            let position: JSONText = .object([("line", .int(line)), ("character", .int(random.below(start + 3)))])
            for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition"] {
                #expect(s.response(method, .object([("textDocument", document), ("position", position)]))?["error"] == nil)
            }
            for method in ["textDocument/documentSymbol", "textDocument/formatting"] {
                #expect(s.response(method, .object([("textDocument", document)]))?["error"] == nil)
            }
            let range: JSONText = .object([("start", .object([("line", .int(0)), ("character", .int(0))])), ("end", position)])
            #expect(s.response("textDocument/codeAction", .object([("textDocument", document), ("range", range)]))?["error"] == nil)
        }
    }

    @Test func changesInOneNotificationApplyInOrder() {
        let s = Session()
        s.open("abc")
        s.notify("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(s.uri)), ("version", .int(2))])),
            ("contentChanges", .array([
                .object([("range", .object([("start", .object([("line", .int(0)), ("character", .int(3))])), ("end", .object([("line", .int(0)), ("character", .int(3))]))])), ("text", .string("d😀"))]),
                // The second change's positions are in the text the first one made: 😀 is two units.
                .object([("range", .object([("start", .object([("line", .int(0)), ("character", .int(4))])), ("end", .object([("line", .int(0)), ("character", .int(6))]))])), ("text", .string("e"))]),
            ])),
        ]))
        #expect(s.server.documentText(s.uri) == "abcde")
    }
}
