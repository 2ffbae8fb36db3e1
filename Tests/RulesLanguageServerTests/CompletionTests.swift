import RulesLanguageServer
import RulesSyntax
import Testing

@Suite struct CompletionTests {
    /// The rules with one expression replaced by a half-typed one (`|` is the cursor).
    static func typing(_ expression: String, in key: String = "\".write\": \"auth.uid === $uid\"") -> String {
        Fixtures.rules.replacingOccurrences(of: key, with: expression)
    }

    /// The labels offered at the cursor of `text`, after the complete rules were open (so the
    /// last rule tree is known while the text is half-typed).
    static func labels(_ text: String) -> [String] {
        let (plain, line, character) = Fixtures.cursor(text)
        let s = Session()
        s.open(Fixtures.rules)
        _ = s.diagnostics()
        s.change(nil, plain)
        let items = s.at("textDocument/completion", line: line, character: character)?["items"]?.arrayValue ?? []
        return items.compactMap { $0["label"]?.text }
    }

    @Test(arguments: [
        ("\".write\": \"auth.|", ["uid", "provider", "token"], ["val"]),
        ("\".write\": \"auth.token.|", ["email", "email_verified", "firebase"], ["uid"]),
        ("\".write\": \"auth.token.firebase.|", ["sign_in_provider", "identities"], []),
        ("\".write\": \"data.|", ["child", "val", "exists", "hasChildren", "parent"], ["length", "uid"]),
        ("\".write\": \"newData.child('profile').|", ["val", "isString", "child"], []),
        ("\".write\": \"root.child('users').child($uid).parent().|", ["exists"], []),
        ("\".write\": \"newData.val().|", ["length", "matches", "beginsWith", "toLowerCase"], ["exists"]),
        ("\".write\": \"$uid.|", ["length", "contains"], []),
        ("\".write\": \"newData.ch|", ["child"], ["val", "exists"]),
        ("\".write\": \"auth != null && |", ["auth", "data", "newData", "root", "now", "$uid"], ["query"]),
        ("\".write\": \"auth != null && $|", ["$uid"], ["auth"]),
        ("\".write\": \"newData.child('|", ["profile", "name"], ["users"]),
        ("\".write\": \"root.child('|", ["users", "scores"], ["profile"]),
        ("\".write\": \"root.child('users/' + auth.uid).child('|", ["profile", "name"], []),
        ("\".write\": \"data.parent().child('|", [], ["profile"]),
        ("\".write\": \"newData.hasChildren(['|", ["profile", "name"], []),
        ("\".write\": \"newData.hasChildren(['profile', '|", ["name"], []),
        ("\".write\": \"newData.hasChild(\\\"|", ["profile"], []),
        ("\".write\": \"newData.child('profile').exists() && data.child('|", ["name"], []),
        ("\".write\": \"newData.val() == '|", [], ["profile"]),
    ])
    func offersWhatFitsInAnExpression(text: String, expected: [String], absent: [String]) {
        let labels = Self.labels(Self.typing(text))
        for e in expected { #expect(labels.contains(e), "\(e) in \(labels)") }
        for a in absent { #expect(!labels.contains(a), "\(a) not in \(labels)") }
    }

    @Test func offersQueryFieldsAndNoNewDataInARead() {
        let labels = Self.labels(Self.typing("\".read\": \"query.|", in: "\".read\": \"auth != null && auth.uid === $uid\""))
        #expect(labels.contains("orderByChild") && labels.contains("limitToFirst"))
        let names = Self.labels(Self.typing("\".read\": \"|", in: "\".read\": \"auth != null && auth.uid === $uid\""))
        #expect(names.contains("query") && !names.contains("newData"))
    }

    @Test(arguments: [
        // In a new key's quotes: the rule keys the object does not have yet.
        "isString()\", \".| },",
        // Before any quote: the same, with the quotes and colon inserted.
        "isString()\", | },",
    ])
    func offersRuleKeysWhereAKeyGoes(text: String) {
        let labels = Self.labels(Fixtures.rules.replacingOccurrences(of: "isString()\" },", with: text))
        for e in [".read", ".write", ".indexOn"] { #expect(labels.contains(e), "\(e) in \(labels)") }
        #expect(!labels.contains(".validate"))
    }

    @Test func replacesThePartialNameAndInsertsCallParentheses() throws {
        let (plain, line, character) = Fixtures.cursor(Self.typing("\".write\": \"newData.ex|\""))
        let s = Session()
        s.open(plain)
        let items = try #require(s.at("textDocument/completion", line: line, character: character)?["items"]?.arrayValue)
        let exists = try #require(items.first { $0["label"]?.text == "exists" })
        #expect(exists.at("textEdit.newText")?.text == "exists()")
        #expect(exists.at("textEdit.range")?.rangeText == "\(line):\(character - 2)-\(line):\(character)")
        #expect(exists["kind"]?.int == 2)
    }

    @Test func nothingOutsideTheRulesOrInAComment() {
        #expect(Self.labels("{|\n").isEmpty)
        #expect(Self.labels(Fixtures.rules.replacingOccurrences(of: "scores 😀", with: "scores auth.|")).isEmpty)
    }
}

@Suite struct IndexOnCompletionTests {
    @Test(arguments: [
        // (what replaces the .read of /users/$uid/.., the labels)
        ("\".indexOn\": \"|", ["profile", "name", ".value"]),
        ("\".indexOn\": [\"profile\", \"|", ["profile", "name", ".value"]),
    ])
    func offersTheRecordsChildren(text: String, labels: [String]) {
        // At /users, whose records ($uid) have profile and name.
        let doc = Fixtures.rules.replacingOccurrences(of: "\"users\": {", with: "\"users\": {\n      \(text)")
        #expect(CompletionTests.labels(doc) == labels)
    }
}
