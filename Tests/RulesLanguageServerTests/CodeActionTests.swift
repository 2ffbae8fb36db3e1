import RulesLanguageServer
import RulesSyntax
import Testing

@Suite struct CodeActionTests {
    /// The actions for the finding `code` in `text`, each applied to the text.
    static func actions(_ text: String, code: String) throws -> [(title: String, result: String)] {
        let s = Session()
        s.open(text)
        let finding = try #require(s.diagnostics().first { $0["code"]?.text == code })
        let range = try #require(finding["range"])
        let answer = s.request("textDocument/codeAction", .object([
            ("textDocument", .object([("uri", .string(s.uri))])), ("range", range.echo),
            ("context", .object([("diagnostics", .array([]))])),
        ]))
        let actions = try #require(answer?.arrayValue)
        return try actions.map { a in
            let edits = try #require(a.at("edit.changes")?.members?.first?.value.arrayValue)
            #expect(a["kind"]?.text == "quickfix")
            #expect(a.at("diagnostics.0.code")?.text == code)
            return (a["title"]?.text ?? "", apply(edits, to: text))
        }
    }

    /// Applies LSP edits (UTF-16 positions) to a text.
    static func apply(_ edits: [JSONNode], to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        for e in edits.reversed() {
            let (sl, sc, el, ec) = (e.at("range.start.line")!.int!, e.at("range.start.character")!.int!, e.at("range.end.line")!.int!, e.at("range.end.character")!.int!)
            let start = String(decoding: Array(lines[sl].utf16.prefix(sc)), as: UTF16.self)
            let end = String(decoding: Array(lines[el].utf16.dropFirst(ec)), as: UTF16.self)
            let replaced = (start + (e["newText"]?.text ?? "") + end).components(separatedBy: "\n")
            lines.replaceSubrange(sl...el, with: replaced)
        }
        return lines.joined(separator: "\n")
    }

    static func findings(_ text: String) -> [String] {
        let s = Session()
        s.open(text)
        return s.diagnostics().compactMap { $0["code"]?.text }
    }

    @Test(arguments: [
        // (what the location has, what the fix makes of it)
        ("", "\".indexOn\": [\"points\"],\n      \".read\""),
        ("\".indexOn\": \"name\", ", "\".indexOn\": [\"name\", \"points\"], "),
        ("\".indexOn\": [\"name\"], ", "\".indexOn\": [\"name\", \"points\"], "),
        ("\".indexOn\": [], ", "\".indexOn\": [\"points\"], "),
    ])
    func addsTheMissingIndex(existing: String, fixed: String) throws {
        let text = Fixtures.rules.replacingOccurrences(of: "      \".read\": \"auth != null && query", with: "      \(existing)\".read\": \"auth != null && query")
        let fix = try #require(try Self.actions(text, code: "query-without-index").first { $0.title == "Add \"points\" to .indexOn at /scores" })
        #expect(fix.result.contains(fixed), "\(fix.result)")
        #expect(!Self.findings(fix.result).contains("query-without-index"))
    }

    @Test func suppressesALintOnItsLine() throws {
        let fix = try #require(try Self.actions(Fixtures.rules, code: "query-without-index").first { $0.title == "Suppress query-without-index on this line" })
        #expect(fix.result.contains("\n      // rules-lint-disable-next-line query-without-index\n      \".read\": \"auth != null && query"))
        #expect(!Self.findings(fix.result).contains("query-without-index"))
        #expect(!Self.findings(fix.result).contains("unused-suppression"))
    }

    @Test func noSuppressionWhereTheLineStartsInsideAString() throws {
        let text = #"{"rules": {".read": "auth != null &&"# + "\n" + #"  query.orderByChild === 'a'"}}"#
        let titles = try Self.actions(text, code: "query-without-index").map(\.title)
        #expect(titles == ["Add \"a\" to .indexOn at /"])
    }
}

extension JSONNode {
    /// The same JSON, to send back.
    var echo: JSONText {
        switch kind {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let d, _): .int(Int(d))
        case .string(let s): .string(s.value)
        case .array(let items): .array(items.map(\.echo))
        case .object(let members): .object(members.map { ($0.key.value, $0.value.echo) })
        }
    }
}
