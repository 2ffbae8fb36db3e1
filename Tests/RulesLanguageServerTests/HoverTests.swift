import RulesLanguageServer
import RulesSyntax
import Testing

@Suite struct HoverTests {
    @Test(arguments: [
        // (text on the line, 0-based line, offset into the text, what the hover says)
        ("newData.val()", 8, 9, "newData.val(): string, number, boolean or null"),
        ("newData.val()", 8, 2, "`newData`: the data at `/users/$uid/name` as it would be after the write"),
        ("$uid\",", 5, 1, "`$uid`: the key at segment 2 of `/users/$uid`"),
        ("auth.uid", 5, 6, "auth.uid: string\n"),
        ("auth.uid", 5, 1, "auth: object or null"),
        ("$uid\",", 5, 1, "$uid: string\n"),
        ("query.orderByChild", 12, 8, "query.orderByChild: string"),
        ("isString()", 7, 1, "`isString()` → boolean"),
        ("\"$uid\"", 4, 2, "`$uid`: the key at segment 2 of `/users/$uid`, a string: the name of whichever child of `/users`"),
    ])
    func describesWhatIsUnderTheCursor(needle: String, line: Int, plus: Int, says: String) throws {
        let s = Session()
        s.open(Fixtures.rules)
        let (l, c) = Fixtures.position(needle, line: line, plus: plus)
        let hover = try #require(s.at("textDocument/hover", line: l, character: c))
        let text = try #require(hover.at("contents.value")?.text)
        #expect(text.contains(says), "\(text)")
        #expect(hover.at("contents.kind")?.text == "markdown")
    }

    /// The type of what is under the cursor, also where the checker leaves it dynamic: a field of
    /// `auth` has its field's type, `val()` the primitives it may be.
    @Test(arguments: [
        ("now", 0, "now: number\n"),
        ("auth.token.email_verified", 12, "auth.token.email_verified: boolean\n"),
        ("auth.token.admin", 12, "auth.token.admin: any JSON value (a custom claim, known at run time)\n"),
        ("auth.token.firebase", 13, "auth.token.firebase: object\n"),
        ("auth.uid.length", 10, "auth.uid.length: number\n"),
        ("auth['provider']", 16, "auth['provider']: string\n"),
        ("newData.child('x').val()", 20, "newData.child('x').val(): string, number, boolean or null (known at run time)\n"),
        ("newData.child('x')", 9, "newData.child('x'): snapshot\n"),
    ])
    func namesTheTypeOfWhatIsUnderTheCursor(needle: String, plus: Int, says: String) throws {
        let doc = """
            {
              "rules": {
                "$uid": {
                  ".write": "now > 0 && auth.token.email_verified === true && auth.token.admin === true && auth.token.firebase != null && auth.uid.length > 0 && auth['provider'] != null && newData.child('x').val() != null"
                }
              }
            }
            """
        let s = Session()
        s.open(doc)
        let (l, c) = Fixtures.position(needle, line: 3, in: doc, plus: plus)
        let text = try #require(s.at("textDocument/hover", line: l, character: c)?.at("contents.value")?.text)
        #expect(text.hasPrefix("```\n\(says)```"), "\(text)")
    }

    @Test func onAReadKeyListsTheRulesAlongThePath() throws {
        let s = Session()
        let doc = Fixtures.rules.replacingOccurrences(of: "\"rules\": {", with: "\"rules\": {\n    \".read\": \"auth.token.admin === true\",")
        s.open(doc)
        let (l, c) = Fixtures.position("\".read\"", line: 6, in: doc, plus: 2)
        let text = try #require(s.at("textDocument/hover", line: l, character: c)?.at("contents.value")?.text)
        #expect(text.contains("A read at `/users/$uid` is allowed when any of these grants it"))
        #expect(text.contains("- `/` .read: `\"auth.token.admin === true\"`\n- `/users/$uid` .read: `\"auth != null && auth.uid === $uid\"`"), "\(text)")
    }

    @Test func onAValidateKeyNamesTheWritesThatMustGrantFirst() throws {
        let s = Session()
        s.open(Fixtures.rules)
        let (l, c) = Fixtures.position("\".validate\"", line: 8, plus: 3)
        let text = try #require(s.at("textDocument/hover", line: l, character: c)?.at("contents.value")?.text)
        #expect(text.contains("`.validate` at `/users/$uid/name` must hold"))
        #expect(text.contains("- `/users/$uid` .write: `\"auth.uid === $uid\"`"))
    }

    @Test func nothingOnPunctuationOrOutsideTheRules() {
        let s = Session()
        s.open(Fixtures.rules)
        #expect(s.at("textDocument/hover", line: 0, character: 0)?.kind == .null)
        #expect(s.at("textDocument/hover", line: 1, character: 5)?.kind == .null)
    }
}

@Suite struct HoverInBrokenExpressionTests {
    @Test func aVariableStillShowsItsBindingWhenTheExpressionHasErrors() throws {
        let s = Session()
        let doc = Fixtures.rules.replacingOccurrences(of: "\"auth.uid === $uid\"", with: "\"auth.uid === $uid && nope\"")
        s.open(doc)
        let (l, c) = Fixtures.position("$uid &&", line: 6, in: doc, plus: 2)
        let hover = try #require(s.at("textDocument/hover", line: l, character: c))
        #expect(hover.at("contents.value")?.text?.contains("`$uid`: the key at segment 2 of `/users/$uid`") == true)
        #expect(hover["range"]?.rangeText == "\(l):\(c - 2)-\(l):\(c + 2)")
    }
}
