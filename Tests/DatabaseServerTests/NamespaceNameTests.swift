import Testing

@testable import DatabaseServer

/// A namespace is a database name (lowercase letters, digits and hyphens, one DNS label); any
/// other `?ns=` is a 400, and nothing a client sends can break a line of the server's log.
@Suite struct NamespaceNameTests {
    /// Names real clients and this repository's tests use, and the edges of the rule.
    static let valid = [
        "default", "demo", "demo-default-rtdb", "demo-test-default-rtdb", "fake-server", "my-project-123-default-rtdb",
        "a", "x", "0", "one", "two", "second", "other", "options", "ns", "a-b", "a--b", String(repeating: "a", count: 63),
    ]

    static let invalid = [
        "", "../../package", "..", ".", "0/x", "a/b", "a\\b", "a\nb", "a\rb", "forged\nDENY GET /x", "\u{1B}[31mred",
        "Demo", "DEFAULT", "a.b", "a.json", "-a", "a-", "-", "a b", "a_b", "é", "a%2Fb", "a\u{0}b",
        String(repeating: "a", count: 64),
    ]

    @Test(arguments: valid)
    func aDatabaseNameIsAccepted(_ text: String) throws {
        #expect(try NamespaceName(validating: text).text == text)
        #expect(NamespaceName(text) != nil)
    }

    @Test(arguments: invalid)
    func anythingElseIsRefusedWithTheRule(_ text: String) {
        #expect(NamespaceName(text) == nil)
        do {
            _ = try NamespaceName(validating: text)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.kind == .badRequest)
            #expect(error.httpStatus == 400)
            #expect(error.message.hasPrefix("Invalid namespace \""))
            #expect(error.message.contains("lowercase letters (a-z), digits and hyphens"))
            #expect(!error.message.contains("\n"), "the message is one line")
            #expect(!error.message.contains("\u{1B}"))
        }
    }

    @Test func restOptionsCheckTheNamespace() throws {
        #expect(try RESTOptions([("ns", "demo-default-rtdb")]).namespace == "demo-default-rtdb")
        #expect(try RESTOptions([("ns", "")]).namespace == nil)
        #expect(try RESTOptions([]).namespace == nil)
        for bad in ["../../package", "0/x", "a\nb", "Upper"] {
            #expect(throws: ServerError.self) { try RESTOptions([("ns", bad)]) }
        }
        do {
            _ = try RESTOptions([("ns", "../../package")])
        } catch {
            #expect(error.httpStatus == 400)
            #expect(error.message.hasPrefix(#"Invalid namespace "../../package": a database name has"#))
        }
    }

    @Test func theRegistryNamesTheDefaultForAMissingParameter() throws {
        let registry = NamespaceRegistry(defaultName: "demo-default-rtdb", rules: .open)
        #expect(try registry.name(nil).text == "demo-default-rtdb")
        #expect(try registry.name("").text == "demo-default-rtdb")
        #expect(try registry.name("other").text == "other")
        #expect(throws: ServerError.self) { try registry.name("../x") }
    }

    static func record(namespace: String = "default", path: String = "/a", identity: String = "anonymous", reason: String? = nil) -> RequestRecord {
        RequestRecord(
            transport: .rest, method: "GET", namespace: namespace, path: path, identity: identity, uid: nil, verdict: .denied,
            status: 401, reason: reason, milliseconds: 1, time: .init(timeIntervalSince1970: 0))
    }

    @Test func aLogLineEscapesControlCharactersInEveryField() {
        let forged = Self.record(
            namespace: "x\nDENY PUT default/admin (owner) 200 0.1 ms", path: "/a\r\u{1B}[2J", identity: "uid\u{85}\u{2028}",
            reason: "'\u{1B}]0;title\u{7}' === 'b'")
        let lines = forged.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2, "\(forged.text)")
        #expect(lines[0] == #"DENY GET x\nDENY PUT default/admin (owner) 200 0.1 ms/a\r\u{1B}[2J (uid\u{85}\u{2028}) 401 1.0 ms"#)
        #expect(lines[1] == #"     '\u{1B}]0;title\u{7}' === 'b'"#)
        #expect(!forged.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x0D })
    }

    @Test func aReasonOfSeveralLinesKeepsThemIndented() {
        let record = Self.record(reason: "rules do not compile:\nfile:1:2: error: x")
        #expect(record.text == "DENY GET default/a (anonymous) 401 1.0 ms\n     rules do not compile:\n     file:1:2: error: x")
        #expect(Self.record().text == "DENY GET default/a (anonymous) 401 1.0 ms")
        #expect(RequestRecord.escaped("plain /path é \\d") == "plain /path é \\d")
    }
}
