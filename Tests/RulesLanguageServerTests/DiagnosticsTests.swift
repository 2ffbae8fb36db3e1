import RulesLanguageServer
import RulesSyntax
import Testing

@Suite struct DiagnosticsTests {
    static let nameLine = 8

    @Test func anErrorTypedInAnExpressionIsPublishedAtItsUTF16RangeAndClearsWhenFixed() throws {
        let s = Session()
        s.open(Fixtures.rules)
        #expect(s.errors().isEmpty)
        // isString() → isStrin(): delete the g.
        let (line, g) = Fixtures.position("isString", line: Self.nameLine, plus: 7)
        s.change((line, g, line, g + 1), "")
        let errors = s.errors()
        try #require(errors.count == 1)
        let start = Fixtures.position("isString", line: Self.nameLine).1
        #expect(errors[0]["range"]?.rangeText == "\(line):\(start)-\(line):\(start + 7)")
        #expect(errors[0]["source"]?.text == "rules")
        s.change((line, g, line, g), "g", version: 3)
        #expect(s.errors().isEmpty)
    }

    @Test func aBurstOfChangesIsCheckedOnce() {
        let s = Session()
        s.open(Fixtures.rules)
        for i in 0..<5 { s.change((0, 0, 0, 0), " ", version: 2 + i) }
        let published = s.server.pendingDiagnostics()
        #expect(published.count == 1)
        #expect(Session.parse(published[0]).at("params.version")?.int == 6)
        #expect(s.server.pendingDiagnostics().isEmpty)
    }

    @Test func lintsArePublishedAsWarningsWithTheirCode() {
        let s = Session()
        s.open(Fixtures.rules)
        let lint = s.diagnostics().first { $0["code"]?.text == "query-without-index" }
        #expect(lint?["severity"]?.int == 2)
        let (line, start) = Fixtures.position("'points'", line: 12)
        #expect(lint?["range"]?.rangeText == "\(line):\(start)-\(line):\(start + 8)")
    }

    @Test func notesBecomeRelatedInformationAtTheFindingsRange() throws {
        let checker = DocumentChecker { file in
            [CheckedDiagnostic(.warning("public-write", "Anyone can write.", at: SourceRange(2, 9)), notes: ["witness: as anonymous:", "1. set /x = 1 → allowed"])]
        }
        let s = Session(checker: checker)
        s.open("{\"rules\": {\".write\": true}}")
        let d = try #require(s.diagnostics().first)
        let related = try #require(d["relatedInformation"]?.arrayValue)
        #expect(related.map { $0["message"]?.text } == ["witness: as anonymous:", "1. set /x = 1 → allowed"])
        #expect(related[0].at("location.uri")?.text == s.uri)
        #expect(related[0].at("location.range")?.rangeText == d["range"]?.rangeText)
    }

    @Test func closingADocumentForgetsIt() {
        let s = Session()
        s.open(Fixtures.rules)
        _ = s.diagnostics()
        s.notify("textDocument/didClose", .object([("textDocument", .object([("uri", .string(s.uri))]))]))
        // An empty list clears the editor's.
        let published = s.server.pendingDiagnostics().map(Session.parse)
        #expect(published.count == 1)
        #expect(published.first?.at("params.diagnostics")?.arrayValue?.isEmpty == true)
        #expect(s.at("textDocument/hover", line: 5, character: 20)?.kind == .null)
    }
}

@Suite struct OtherJSONTests {
    @Test(arguments: [
        // (path, text, whether the document gets diagnostics)
        ("/p/database.rules.json", "{\"rulez\": {}}", true),
        ("/p/storage.rules.jsonc", "{", true),
        ("/p/config.json", "{\"rules\": {\".read\": \"nope\"}}", true),
        ("/p/half.json", "{\"rules\": {\".read\": \"no", true),
        ("/p/package.json", "{\"name\": \"app\", \"version\": 1}", false),
        ("/p/broken.json", "{\"name\": ", false),
    ])
    func onlyRulesDocumentsAreChecked(path: String, text: String, checked: Bool) {
        let analysis = DocumentAnalysis(path: path, bytes: Array(text.utf8), checker: .compilerAndLints)
        #expect(analysis.diagnostics?.isEmpty == !checked)
    }
}

@Suite struct CheckOnDemandTests {
    /// A checker that counts its runs.
    final class Counter: @unchecked Sendable {
        var runs = 0
    }

    @Test func hoverAndCompletionDoNotWaitForTheCheck() {
        let counter = Counter()
        let s = Session(checker: DocumentChecker { _ in
            counter.runs += 1
            return []
        })
        s.open(Fixtures.rules)
        _ = s.at("textDocument/hover", line: 5, character: 20)
        _ = s.at("textDocument/completion", line: 5, character: 20)
        #expect(counter.runs == 0)
        _ = s.diagnostics()
        #expect(counter.runs == 1)
        // The findings are kept for the code actions of the same version.
        _ = s.request("textDocument/codeAction", .object([
            ("textDocument", .object([("uri", .string(s.uri))])),
            ("range", .object([("start", .object([("line", .int(0)), ("character", .int(0))])), ("end", .object([("line", .int(9)), ("character", .int(0))]))])),
        ]))
        #expect(counter.runs == 1)
    }
}
