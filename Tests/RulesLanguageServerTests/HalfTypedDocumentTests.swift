import Foundation
import RulesLanguageServer
import RulesSyntax
import Testing

/// Every prefix of a real rules file, typed one character at a time (incremental changes at the
/// cursor), with every feature asked at the cursor after each keystroke: nothing may crash, and
/// every answer must be a response.
@Suite struct HalfTypedDocumentTests {
    @Test func everyPrefixOfARealRulesFileIsServed() throws {
        let text = Fixtures.read(Fixtures.queries)
        try #require(!text.isEmpty)
        let s = Session()
        s.open("")
        var line = 0, character = 0
        var published = 0
        let document: JSONText = .object([("uri", .string(s.uri))])
        for (i, ch) in text.enumerated() {
            s.change((line, character, line, character), String(ch), version: i + 2)
            if ch == "\n" {
                line += 1
                character = 0
            } else {
                character += String(ch).utf16.count
            }
            published += s.server.pendingDiagnostics().count
            let position: JSONText = .object([("line", .int(line)), ("character", .int(character))])
            for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition"] {
                let r = s.response(method, .object([("textDocument", document), ("position", position)]))
                #expect(r?["error"] == nil, "\(method) after \(i + 1) characters")
            }
            // The whole-document features, every so often (each reads the whole text).
            if i % 16 == 0 || i == text.count - 1 {
                #expect(s.response("textDocument/documentSymbol", .object([("textDocument", document)]))?["error"] == nil)
                #expect(s.response("textDocument/formatting", .object([("textDocument", document)]))?["error"] == nil)
                let all: JSONText = .object([
                    ("start", .object([("line", .int(0)), ("character", .int(0))])), ("end", position),
                ])
                #expect(s.response("textDocument/codeAction", .object([("textDocument", document), ("range", all)]))?["error"] == nil)
            }
        }
        #expect(published == text.count)
        // The whole file typed: the server's text is the file.
        #expect(s.server.documentText(s.uri) == text)
    }
}
