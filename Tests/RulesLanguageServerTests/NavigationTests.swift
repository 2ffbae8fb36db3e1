import RulesLanguageServer
import RulesSyntax
import Testing

@Suite struct NavigationTests {
    @Test(arguments: [
        // (the needle, its line, offset into it): each on a $uid that the users/$uid key binds.
        ("$uid\",", 5, 0), ("$uid\",", 5, 2), ("$uid\",", 5, 4), ("$uid\",", 6, 3),
    ])
    func goesFromAVariableToItsKey(needle: String, line: Int, plus: Int) throws {
        let s = Session()
        s.open(Fixtures.rules)
        let (l, c) = Fixtures.position(needle, line: line, plus: plus)
        let location = try #require(s.at("textDocument/definition", line: l, character: c))
        let (kl, kc) = Fixtures.position("\"$uid\"", line: 4)
        #expect(location["uri"]?.text == s.uri)
        #expect(location["range"]?.rangeText == "\(kl):\(kc)-\(kl):\(kc + 6)")
    }

    @Test func theInnermostWildcardOfTheNameBindsIt() throws {
        let text = #"{"rules": {"$a": {"$a": {".read": "$a == 'x'"}}}}"#
        let s = Session()
        s.open(text)
        let location = try #require(s.at("textDocument/definition", line: 0, character: 37))
        #expect(location["range"]?.rangeText == "0:18-0:22")
    }

    @Test func noDefinitionForOtherNames() {
        let s = Session()
        s.open(Fixtures.rules)
        let (l, c) = Fixtures.position("auth.uid", line: 5, plus: 1)
        #expect(s.at("textDocument/definition", line: l, character: c)?.kind == .null)
    }

    @Test func theOutlineIsTheRuleTree() throws {
        let s = Session()
        s.open(Fixtures.rules)
        let symbols = try #require(s.request("textDocument/documentSymbol", .object([("textDocument", .object([("uri", .string(s.uri))]))]))?.arrayValue)
        func outline(_ nodes: [JSONNode], depth: Int = 0) -> [String] {
            nodes.flatMap { n in
                ["\(String(repeating: "  ", count: depth))\(n["name"]?.text ?? "?") \(n["kind"]?.int ?? 0)" + (n["detail"]?.text.map { " \($0)" } ?? "")]
                    + outline(n["children"]?.arrayValue ?? [], depth: depth + 1)
            }
        }
        #expect(outline(symbols) == [
            "rules 3",
            "  users 19",
            "    $uid 13",
            "      .read 7 \"auth != null && auth.uid === $uid\"",
            "      .write 7 \"auth.uid === $uid\"",
            "      profile 19",
            "        .validate 7 \"newData.child('name').isString()\"",
            "      name 19",
            "        .validate 7 \"newData.val() !== 'é中😀' && newData.isString()\"",
            "  scores 19",
            "    .read 7 \"auth != null && query.orderByChild === 'points'\"",
            "    $id 13",
            "      .write 7 \"auth != null\"",
            "      .validate 7 \"newData.isNumber()\"",
        ])
        #expect(symbols[0].at("selectionRange")?.rangeText == "2:2-2:9")
    }
}
