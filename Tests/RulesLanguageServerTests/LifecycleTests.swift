import RulesLanguageServer
import RulesSyntax
import Testing

@Suite struct LifecycleTests {
    @Test func initializeAnnouncesIncrementalSyncAndTheFeatures() throws {
        let s = Session(initialize: false)
        let result = try #require(s.request("initialize", .object([("capabilities", .object([]))])))
        #expect(result.at("capabilities.textDocumentSync.change")?.int == 2)
        #expect(result.at("capabilities.positionEncoding")?.text == "utf-16")
        for feature in ["hoverProvider", "definitionProvider", "documentSymbolProvider", "documentFormattingProvider"] {
            #expect(result.at("capabilities.\(feature)") != nil, "\(feature)")
        }
        #expect(result.at("capabilities.completionProvider.triggerCharacters")?.arrayValue?.count == 4)
        #expect(result.at("serverInfo.name")?.text == "rules")
    }

    @Test(arguments: [
        // (initialized first, method, error code)
        (false, "textDocument/hover", -32002),
        (true, "workspace/unknown", -32601),
        (true, "textDocument/hover", -32602),
    ])
    func answersBadRequestsWithErrors(initialized: Bool, method: String, code: Int) {
        let s = Session(initialize: initialized)
        let response = s.response(method, .object([]))
        #expect(response?.at("error.code")?.int == code)
    }

    @Test func answersUnreadableJSONWithAParseError() {
        let s = Session()
        let out = s.server.handle(Array("{not json".utf8)).map(Session.parse)
        #expect(out.first?.at("error.code")?.int == -32700)
        #expect(out.first?["id"]?.kind == .null)
    }

    @Test func aCancelledRequestIsAnsweredWithRequestCancelled() {
        let s = Session()
        s.open(Fixtures.rules)
        s.notify("$/cancelRequest", .object([("id", .int(7))]))
        s.nextID = 7
        let response = s.response("textDocument/documentSymbol", .object([("textDocument", .object([("uri", .string(s.uri))]))]))
        #expect(response?.at("error.code")?.int == -32800)
        // The id is answered once; the next request with it runs.
        s.nextID = 7
        #expect(s.request("textDocument/documentSymbol", .object([("textDocument", .object([("uri", .string(s.uri))]))]))?.arrayValue?.count == 1)
    }

    @Test func shutdownThenExitEndsWithZero() {
        let s = Session()
        #expect(s.response("shutdown", .null)?["result"]?.kind == .null)
        #expect(s.response("textDocument/hover", .object([]))?.at("error.code")?.int == -32600)
        #expect(s.server.exitCode == nil)
        s.notify("exit", .null)
        #expect(s.server.exitCode == 0)
    }

    @Test func exitWithoutShutdownEndsWithOne() {
        let s = Session()
        s.notify("exit", .null)
        #expect(s.server.exitCode == 1)
    }

    @Test func aRequestAboutAnUnopenedDocumentHasNoAnswer() {
        let s = Session()
        #expect(s.at("textDocument/hover", line: 0, character: 0)?.kind == .null)
    }
}
