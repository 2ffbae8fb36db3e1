import DatabaseRules
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import DatabaseServer

/// The REST door, requests handed to it in this process: statuses, bodies and headers.
@Suite struct RESTResponderTests {
    static let rulesSource = """
        {"rules": {
          "users": {"$uid": {".read": "auth != null", ".write": "auth.uid === $uid"}},
          "items": {".indexOn": ["owner"], ".read": true, ".write": true}
        }}
        """

    func responder(limits: ServerLimits = ServerLimits()) throws -> RESTResponder {
        let rules = NamespaceRules(ruleset: try Ruleset(source: Self.rulesSource, path: "r.json"), source: Self.rulesSource, origin: .file("r.json"))
        let registry = NamespaceRegistry(defaultName: "default", rules: rules)
        return RESTResponder(registry: registry, log: RequestLog(format: .quiet), limits: limits)
    }

    @Test func bodiesOverTheLimitAre413AndNothingIsWritten() async throws {
        var limits = ServerLimits()
        limits.maxBodyBytes = 100
        try await ResponderClient.run(responder(limits: limits)) { client in
            let big = "\"" + String(repeating: "x", count: 200) + "\""
            try await client.execute(uri: "/items/a.json", method: .put, body: ByteBuffer(string: big)) { r in
                #expect(r.status == .contentTooLarge)
                #expect(String(buffer: r.body).contains("the limit is 100 bytes"))
            }
            try await client.execute(uri: "/items/a.json", method: .get) { r in
                #expect(String(buffer: r.body) == "null")
            }
        }
    }

    static let owner: HTTPFields = [.authorization: "Bearer owner"]

    @Test func deniedWritesAre401WithTheExplanationHeader() async throws {
        try await ResponderClient.run(responder()) { client in
            try await client.execute(uri: "/users/bob.json", method: .put, body: ByteBuffer(string: "1")) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body) == "{\n  \"error\" : \"Permission denied\"\n}\n")
                let why = response.headers[HTTPField.Name("X-Rules-Explanation")!]
                #expect(why?.contains("/users/$uid/.write at r.json:2:") == true)
            }
        }
    }

    /// Rules uploaded through `/.settings/rules.json` are named after their namespace in
    /// explanations, not after a file they never were.
    @Test func uploadedRulesAreNamedByTheirNamespace() async throws {
        try await ResponderClient.run(responder()) { client in
            try await client.execute(uri: "/.settings/rules.json?ns=other", method: .put, headers: Self.owner,
                                     body: ByteBuffer(string: #"{"rules": {".write": "newData.val() === 1"}}"#)) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/n.json?ns=other", method: .put, body: ByteBuffer(string: "2")) { r in
                #expect(r.status == .unauthorized)
                let why = r.headers[HTTPField.Name("X-Rules-Explanation")!] ?? ""
                #expect(why.contains("/.write at uploaded rules (namespace other):1:"), "\(why)")
            }
        }
    }

    @Test func crudAndEchoes() async throws {
        try await ResponderClient.run(responder()) { client in
            try await client.execute(uri: "/items/a.json", method: .put, headers: Self.owner, body: ByteBuffer(string: #"{"owner":"bob","n":[1,2]}"#)) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body) == #"{"n":[1,2],"owner":"bob"}"#)
            }
            let name = try await client.execute(uri: "/items.json", method: .post, body: ByteBuffer(string: #"{"owner":"al"}"#)) { r in
                #expect(r.status == .ok)
                return String(buffer: r.body)
            }
            #expect(name.hasPrefix(#"{"name":"-"#) && name.utf8.count == 31)
            try await client.execute(uri: "/items/a.json?print=silent", method: .patch, body: ByteBuffer(string: #"{"n":null,"x/y":1}"#)) { r in
                #expect(r.status == .noContent)
                #expect(r.body.readableBytes == 0)
            }
            try await client.execute(uri: "/items/a.json", method: .get) { r in
                #expect(String(buffer: r.body) == #"{"owner":"bob","x":{"y":1}}"#)
            }
            try await client.execute(uri: "/items/a.json", method: .delete) { r in
                #expect(String(buffer: r.body) == "null")
            }
            try await client.execute(uri: "/items/a.json", method: .get) { r in
                #expect(String(buffer: r.body) == "null")
            }
        }
    }

    @Test func etagsAndConditionalRequests() async throws {
        try await ResponderClient.run(responder()) { client in
            try await client.execute(uri: "/items/c.json", method: .put, headers: [HTTPField.Name("if-match")!: "null_etag"], body: ByteBuffer(string: "1")) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.eTag] == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ=")
            }
            try await client.execute(uri: "/items/c.json", method: .put, headers: [HTTPField.Name("if-match")!: "null_etag"], body: ByteBuffer(string: "2")) { r in
                #expect(r.status == .preconditionFailed)
                #expect(r.headers[.eTag] == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ=")
                #expect(String(buffer: r.body) == "1")
            }
            try await client.execute(uri: "/items/c.json", method: .get, headers: [HTTPField.Name("if-none-match")!: "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="]) { r in
                #expect(r.status == .notModified)
            }
            try await client.execute(uri: "/items/c.json", method: .get, headers: [HTTPField.Name("X-Firebase-ETag")!: "true"]) { r in
                #expect(r.headers[.eTag] == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ=")
            }
        }
    }

    @Test func queriesNeedTheirIndex() async throws {
        try await ResponderClient.run(responder()) { client in
            _ = try await client.execute(uri: "/items.json", method: .put, body: ByteBuffer(string: #"{"a":{"owner":"bob","w":1},"b":{"owner":"al","w":2}}"#))
            try await client.execute(uri: #"/items.json?orderBy=%22owner%22&equalTo=%22bob%22"#, method: .get) { r in
                #expect(String(buffer: r.body) == #"{"a":{"owner":"bob","w":1}}"#)
            }
            try await client.execute(uri: #"/items.json?orderBy=%22w%22&limitToFirst=1"#, method: .get) { r in
                #expect(r.status == .badRequest)
                #expect(String(buffer: r.body).contains(#"Index not defined, add \".indexOn\": \"w\", for path \"/items\", to the rules"#))
            }
            try await client.execute(uri: #"/items.json?shallow=true"#, method: .get) { r in
                #expect(String(buffer: r.body) == #"{"a":true,"b":true}"#)
            }
        }
    }

    @Test func rulesUploadAndErrors() async throws {
        try await ResponderClient.run(responder()) { client in
            try await client.execute(uri: "/.settings/rules.json?ns=other", method: .put, body: ByteBuffer(string: "{}")) { r in
                #expect(r.status == .unauthorized)
            }
            try await client.execute(uri: "/.settings/rules.json?ns=other", method: .put, headers: Self.owner, body: ByteBuffer(string: #"{"rules": {".write": "auth.uid == $x"}}"#)) { r in
                #expect(r.status == .badRequest)
                #expect(String(buffer: r.body).contains("1:"))
            }
            try await client.execute(uri: "/.settings/rules.json?ns=other", method: .put, headers: Self.owner, body: ByteBuffer(string: #"{"rules": {/* c */ ".read": true}}"#)) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/.settings/rules.json?ns=other&format=strict", method: .get, headers: Self.owner) { r in
                #expect(String(buffer: r.body) == #"{"rules":{".read":true}}"#)
            }
            try await client.execute(uri: "/users.json?ns=other", method: .get) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/users.json", method: .get) { r in
                #expect(r.status == .unauthorized)
            }
            // Reads of the default namespace made none: only the upload's namespace is listed,
            // with the id of its latest logged request (the page opens where things happen).
            try await client.execute(uri: "/.inspect/databases.json", method: .get, headers: Self.owner) { r in
                #expect(String(buffer: r.body) == #"[{"name":"other","lastRequest":5}]"#)
            }
        }
    }

    @Test func malformedRequestsGetClearErrors() async throws {
        try await ResponderClient.run(responder()) { client in
            for (uri, method, body, status) in [
                ("/items/x.json", HTTPRequest.Method.put, "{bad", HTTPResponse.Status.badRequest),
                ("/items/x.json", .put, "", .badRequest),
                ("/items.json", .patch, "[1]", .badRequest),
                ("/items.json", .patch, #"{"a":1,"a/b":2}"#, .badRequest),
                ("/items/x", .get, "", .notFound),
                ("/items.json?bogus=1", .get, "", .badRequest),
                ("/items.json?auth=garbage", .get, "", .unauthorized),
            ] {
                try await client.execute(uri: uri, method: method, body: body.isEmpty ? nil : ByteBuffer(string: body)) { r in
                    #expect(r.status == status, "\(method) \(uri) \(body)")
                    #expect(String(buffer: r.body).hasPrefix("{\n  \"error\" : "), "\(method) \(uri)")
                }
            }
        }
    }
}
