import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RulesTestSupport
import Testing

@testable import DatabaseServer

/// The request log's numbering and cursor.
@Suite struct RequestLogTests {
    static func record(_ path: String) -> RequestRecord {
        RequestRecord(
            transport: .rest, method: "GET", namespace: "default", path: path, identity: "-", uid: nil, verdict: .allowed,
            status: 200, reason: nil, milliseconds: 0, time: Date())
    }

    @Test func recordsAreNumberedAndReadAfterACursor() async {
        let log = RequestLog(capacity: 3, format: .quiet)
        #expect(log.records(after: 0).isEmpty)
        for i in 1...2 { log.record(Self.record("/\(i)")) }
        #expect(log.records(after: 0).map(\.id) == [1, 2])
        #expect(log.records(after: 1).map(\.path) == ["/2"])
        #expect(log.records(after: 2).isEmpty)
        for i in 3...7 { log.record(Self.record("/\(i)")) }
        // The ring keeps 5, 6, 7: a reader at 1 misses the dropped ones and gets the kept ones.
        #expect(log.records(after: 1).map(\.id) == [5, 6, 7])
        #expect(log.records(after: 5).map(\.path) == ["/6", "/7"])
        #expect(log.records(after: 0, limit: 2).map(\.id) == [5, 6])
        #expect(log.record(id: 4) == nil)
        #expect(log.record(id: 6)?.path == "/6")
        #expect(log.record(id: 8) == nil)
        #expect(log.recent.map(\.id) == [5, 6, 7])
        #expect(log.total == 7)
    }
}

/// The page at `/` and the `/.inspect/` endpoints it reads.
@Suite struct InspectorTests {
    static let rulesSource = """
        {"rules": {
          "users": {"$uid": {".read": "auth != null", ".write": "auth != null && auth.uid === $uid"}},
          "items": {".read": true, ".write": true}
        }}
        """
    static let owner: HTTPFields = [.authorization: "Bearer owner"]
    static let alice = "eyJhbGciOiJub25lIiwidHlwZSI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImlhdCI6MH0."

    struct Setup {
        let responder: RESTResponder
        let log: RequestLog
        let coverage: CoverageRecorder
    }

    func setup(rulesFile: String = "r.json") throws -> Setup {
        let rules = NamespaceRules(ruleset: try Ruleset(source: Self.rulesSource, path: rulesFile), source: Self.rulesSource, origin: .file(rulesFile))
        let coverage = CoverageRecorder()
        let registry = NamespaceRegistry(defaultName: "default", rules: rules, coverage: coverage)
        let log = RequestLog(format: .quiet)
        return Setup(responder: RESTResponder(registry: registry, log: log, limits: ServerLimits()), log: log, coverage: coverage)
    }

    func object(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(String(buffer: buffer).utf8)) as? [String: Any])
    }

    /// The inspector's data answers this machine's pages and clients only: another site's page
    /// gets nothing (through 0.0.0.0: `test_budgets.py`).
    @Test func inspectEndpointsAnswerThisMachineOnly() async throws {
        try await ResponderClient.run(setup().responder) { client in
            try await client.execute(uri: "/.inspect/coverage.json", method: .get) { r in
                #expect(r.status == .ok)
            }
            for headers: HTTPFields in [[.origin: "https://evil.example"], [RequestOrigin.secFetchSite: "cross-site"]] {
                try await client.execute(uri: "/.inspect/coverage.json", method: .get, headers: headers) { r in
                    #expect(r.status == .unauthorized)
                    #expect(!String(buffer: r.body).contains(".read"))
                }
                var admin = headers
                admin[.authorization] = "Bearer owner"
                try await client.execute(uri: "/.inspect/rules.json", method: .get, headers: admin) { r in
                    #expect(r.status == .unauthorized)
                }
            }
            try await client.execute(uri: "/.inspect/coverage.json", method: .get, headers: [.origin: "http://localhost:5173"]) { r in
                #expect(r.status == .ok)
            }
        }
    }

    @Test func thePageIsServedAtTheRootWithoutBreakingRESTReads() async throws {
        try await ResponderClient.run(setup().responder) { client in
            try await client.execute(uri: "/", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/html; charset=utf-8")
                #expect(r.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'none'") == true)
                let html = String(buffer: r.body)
                #expect(html.contains(#"<script src="/.inspect/page.js" defer></script>"#))
                #expect(html.contains(#"<meta name="rules-default-namespace" content="default">"#))
            }
            try await client.execute(uri: "/.inspect/page.js", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/javascript; charset=utf-8")
            }
            try await client.execute(uri: "/.inspect/page.css", method: .get) { r in
                #expect(r.headers[.contentType] == "text/css; charset=utf-8")
            }
            try await client.execute(uri: "/items/a.json", method: .put, body: ByteBuffer(string: "1")) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/.json", method: .get, headers: Self.owner) { r in
                #expect(String(buffer: r.body) == #"{"items":{"a":1}}"#)
            }
            try await client.execute(uri: "/", method: .put, body: ByteBuffer(string: "1")) { r in
                #expect(r.status == .methodNotAllowed)
            }
            try await client.execute(uri: "/elsewhere", method: .get) { r in
                #expect(r.status == .notFound)
            }
        }
    }

    /// Browsers ask for `/favicon.ico` with every page load: it is an icon, not a logged 404; any
    /// other unknown path is logged with its own path, not `/`.
    @Test func theIconIsServedAndUnknownPathsAreLoggedAsAsked() async throws {
        let s = try setup()
        try await ResponderClient.run(s.responder) { client in
            try await client.execute(uri: "/favicon.ico", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "image/svg+xml")
                #expect(String(buffer: r.body).hasPrefix("<svg "))
            }
            try await client.execute(uri: "/elsewhere", method: .get) { r in
                #expect(r.status == .notFound)
            }
        }
        let logged = s.log.records(after: 0)
        #expect(logged.map(\.path) == ["/elsewhere"])
    }

    @Test func theDefaultNamespaceIsEscapedInThePage() async {
        let html = InspectorPage.html(defaultNamespace: #"a"><script>x</script>"#)
        #expect(!html.contains("<script>x"))
        #expect(html.contains(#"content="a&quot;&gt;&lt;script&gt;x&lt;/script&gt;""#))
    }

    @Test func deniedRequestsAreListedAndExplained() async throws {
        let s = try setup()
        try await ResponderClient.run(s.responder) { client in
            try await client.execute(uri: "/users/bob.json?auth=\(Self.alice)", method: .put, body: ByteBuffer(string: "1")) { r in
                #expect(r.status == .unauthorized)
            }
            try await client.execute(uri: "/users/alice.json?auth=\(Self.alice)", method: .put, body: ByteBuffer(string: "2")) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/.inspect/requests.json", method: .get) { r in
                #expect(r.status == .unauthorized)
            }
            try await client.execute(uri: "/.inspect/requests.json?after=0", method: .get, headers: Self.owner) { r in
                let page = try object(r.body)
                #expect(page["total"] as? Int == 2)
                #expect(page["capacity"] as? Int == 1000)
                let requests = try #require(page["requests"] as? [[String: Any]])
                #expect(requests.map { $0["id"] as? Int } == [1, 2])
                #expect(requests.map { $0["verdict"] as? String } == ["denied", "allowed"])
                #expect(requests[0]["path"] as? String == "/users/bob")
                #expect(requests[0]["uid"] as? String == "alice")
                #expect(requests[0]["explained"] as? Bool == true)
            }
            try await client.execute(uri: "/.inspect/requests.json?after=1", method: .get, headers: Self.owner) { r in
                let requests = try #require(try object(r.body)["requests"] as? [[String: Any]])
                #expect(requests.map { $0["id"] as? Int } == [2])
            }
            try await client.execute(uri: "/.inspect/requests/1.json", method: .get, headers: Self.owner) { r in
                let detail = try object(r.body)
                let explanation = try #require(detail["explanation"] as? [String: Any])
                #expect(explanation["allowed"] as? Bool == false)
                let evaluations = try #require(explanation["evaluations"] as? [[String: Any]])
                let decisive = try #require(evaluations[try #require(explanation["decisive"] as? Int)])
                #expect(decisive["rulePath"] as? String == "/users/$uid/.write")
                #expect(decisive["file"] as? String == "r.json")
                #expect(decisive["line"] as? Int == 2)
                #expect(decisive["result"] as? String == "false")
                #expect(decisive["falsePart"] as? String == "auth.uid === $uid")
                #expect(decisive["falseDetail"] as? String == "'alice' === 'bob'")
                let values = try #require(decisive["values"] as? [[String: String]])
                #expect(values.contains { $0["text"] == "auth.uid === $uid" && $0["value"] == "false" })
                let rules = try #require(detail["rules"] as? [String: Any])
                #expect(rules["source"] as? String == Self.rulesSource)
            }
            try await client.execute(uri: "/.inspect/requests/99.json", method: .get, headers: Self.owner) { r in
                #expect(r.status == .notFound)
            }
        }
        // The inspection requests themselves are not logged.
        #expect(s.log.total == 2)
    }

    @Test func administratorRequestsHaveNoExplanation() async throws {
        let s = try setup()
        try await ResponderClient.run(s.responder) { client in
            try await client.execute(uri: "/users/bob.json", method: .put, headers: Self.owner, body: ByteBuffer(string: "1")) { _ in }
            try await client.execute(uri: "/.inspect/requests/1.json", method: .get, headers: Self.owner) { r in
                let detail = try object(r.body)
                #expect(detail["identity"] as? String == "admin")
                #expect(detail["explanation"] is NSNull)
                #expect(detail["rules"] is NSNull)
            }
        }
    }

    @Test func rulesReportHasTheSourceCountsAndTheDiagnosticsOfTheFileOnDisk() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try await dir.write("database.rules.json", Self.rulesSource)
        let s = try setup(rulesFile: path)
        try await ResponderClient.run(s.responder) { client in
            try await client.execute(uri: "/.inspect/rules.json", method: .get) { r in
                #expect(r.status == .unauthorized)
            }
            try await client.execute(uri: "/.inspect/rules.json", method: .get, headers: Self.owner) { r in
                let report = try object(r.body)
                #expect(report["source"] as? String == Self.rulesSource)
                #expect(report["coverage"] as? Bool == true)
                let rules = try #require(report["rules"] as? [[String: Any]])
                #expect(rules.contains { $0["rulePath"] as? String == "/users/$uid/.read" && $0["line"] as? Int == 2 })
                let disk = try #require(report["disk"] as? [String: Any])
                #expect(disk["compiles"] as? Bool == true)
            }
            try await dir.write("database.rules.json", "{\"rules\": {\n  \".read\": \"auth.uid == $nope\"\n}}")
            try await client.execute(uri: "/.inspect/rules.json", method: .get, headers: Self.owner) { r in
                let disk = try #require(try object(r.body)["disk"] as? [String: Any])
                #expect(disk["compiles"] as? Bool == false)
                let diagnostics = try #require(disk["diagnostics"] as? [[String: Any]])
                #expect(diagnostics.first?["line"] as? Int == 2)
                #expect((diagnostics.first?["message"] as? String)?.contains("$nope") == true)
            }
        }
    }

    @Test func coverageCountsAppearInTheRulesReport() async throws {
        let s = try setup()
        let task = Task { await s.coverage.run() }
        defer { s.coverage.stop(); task.cancel() }
        try await ResponderClient.run(s.responder) { client in
            try await client.execute(uri: "/users/bob.json?auth=\(Self.alice)", method: .get) { _ in }
            while s.coverage.pending > 0 { try await Task.sleep(for: .milliseconds(5)) }
            try await client.execute(uri: "/.inspect/rules.json", method: .get, headers: Self.owner) { r in
                let rules = try #require(try object(r.body)["rules"] as? [[String: Any]])
                let read = try #require(rules.first { $0["rulePath"] as? String == "/users/$uid/.read" })
                #expect(read["evaluations"] as? Int == 1)
                #expect(read["true"] as? Int == 1)
                #expect(read["false"] as? Int == 0)
            }
        }
    }

    @Test func theDataEndpointReadsInTheExportFormat() async throws {
        try await ResponderClient.run(setup().responder) { client in
            try await client.execute(
                uri: "/items/a.json", method: .put, headers: Self.owner, body: ByteBuffer(string: #"{".value": "x", ".priority": 3}"#)
            ) { _ in }
            try await client.execute(uri: "/.inspect/data.json?path=/items", method: .get) { r in
                #expect(r.status == .unauthorized)
            }
            try await client.execute(uri: "/.inspect/data.json?path=/items", method: .get, headers: Self.owner) { r in
                #expect(String(buffer: r.body) == #"{"a":{".value":"x",".priority":3}}"#)
            }
            try await client.execute(uri: "/.inspect/data.json?path=/a.b", method: .get, headers: Self.owner) { r in
                #expect(r.status == .badRequest)
            }
        }
    }
}
