import Testing
import RulesLanguageServer

@Suite struct TextDocumentTests {
    @Test(arguments: [
        // (start line, start char, end line, end char, text, result)
        (0, 0, 0, 0, ">", ">a😀b\ncd"),
        (0, 1, 0, 3, "", "ab\ncd"),
        (0, 3, 1, 1, "-", "a😀-d"),
        (1, 2, 1, 2, "!", "a😀b\ncd!"),
        (0, 0, 1, 2, "", ""),
    ])
    func appliesIncrementalChangesAtUTF16Positions(sl: Int, sc: Int, el: Int, ec: Int, text: String, result: String) {
        var doc = TextDocument(uri: "file:///a", version: 1, text: "a😀b\ncd")
        doc.apply(range: LSPRange(start: LSPPosition(line: sl, character: sc), end: LSPPosition(line: el, character: ec)), text: text)
        #expect(doc.text == result)
    }

    @Test func replacesTheWholeTextWithoutARange() {
        var doc = TextDocument(uri: "file:///a", version: 1, text: "old")
        doc.apply(range: nil, text: "new")
        #expect(doc.text == "new")
    }

    @Test(arguments: [
        ("file:///home/me/database.rules.json", "/home/me/database.rules.json"),
        ("file:///a%20b/r%C3%A9gles.json", "/a b/régles.json"),
        ("untitled:Untitled-1", "untitled:Untitled-1"),
    ])
    func turnsFileURIsIntoPaths(uri: String, path: String) {
        #expect(TextDocument.path(of: uri) == path)
    }
}
