import DatabaseRules
import Foundation
import Testing

@testable import DatabaseServer

/// A started server on a loopback port, driven with raw requests: what its edge checks and
/// answers before any request reaches the database.
@Suite(.serialized) struct EdgeServerTests {
    @Test func hostNamesThatAreNotLoopbackOrAllowedGet403OnEveryDoor() async throws {
        let started = try await StartedServer.start { $0.allowedHosts = ["dev.lan"] }
        let refused = try await started.request("GET", "/a.json", host: "evil.example:\(started.port)")
        #expect(refused.status == 403)
        #expect(refused.body.contains("--allow-host"))
        #expect(refused.headers["access-control-expose-headers"] == "ETag, X-Rules-Explanation")
        let stream = try await started.request("GET", "/a.json", host: "evil.example", headers: ["Accept": "text/event-stream"])
        #expect(stream.status == 403)
        let upgrade = try await started.request(
            "GET", "/.ws?v=5&ns=demo", host: "evil.example",
            headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"])
        #expect(upgrade.status == 403)
        #expect(try await started.request("GET", "/a.json", host: "localhost:\(started.port)").status == 200)
        #expect(try await started.request("GET", "/a.json", host: "dev.lan").status == 200)
        #expect(try await started.request("GET", "/a.json", host: "10.0.2.2:\(started.port)").status == 200)
        await started.stop()
    }

    @Test func ownerFromAForeignPageIsRefusedAndOthersStillWork() async throws {
        let started = try await StartedServer.start()
        let owner = ["Authorization": "Bearer owner"]
        let foreign = try await started.request("PUT", "/a.json", headers: owner.merging(["Origin": "https://evil.example"]) { a, _ in a }, body: "1")
        #expect(foreign.status == 401)
        #expect(foreign.body.contains("Administrator credentials"))
        #expect(try await started.request("GET", "/a.json?auth=owner", headers: ["Origin": "https://evil.example"]).status == 401)
        #expect(try await started.request("GET", "/a.json?access_token=owner", headers: ["Sec-Fetch-Site": "cross-site"]).status == 401)
        #expect(try await started.request("GET", "/a.json").body == "null")
        let local = try await started.request("PUT", "/a.json", headers: owner.merging(["Origin": "http://localhost:9876"]) { a, _ in a }, body: "2")
        #expect(local.status == 200)
        // Anonymous from any page: allowed by the (open) rules, and readable by the page.
        let anonymous = try await started.request("GET", "/a.json", headers: ["Origin": "http://192.168.1.5:3000"])
        #expect(anonymous.status == 200 && anonymous.body == "2")
        #expect(anonymous.headers["access-control-allow-origin"] == "http://192.168.1.5:3000")
        #expect(anonymous.headers["vary"]?.contains("Origin") == true)
        #expect(anonymous.headers["access-control-expose-headers"] == "ETag, X-Rules-Explanation")
        let plain = try await started.request("GET", "/a.json")
        #expect(plain.headers["access-control-allow-origin"] == "*")
        #expect(plain.headers["access-control-expose-headers"] == "ETag, X-Rules-Explanation")
        await started.stop()
    }

    @Test func errorsAndPreflightsCarryTheCORSHeaders() async throws {
        let started = try await StartedServer.start(rules: #"{"rules": {"a": {".write": "newData.val() === 1"}}}"#)
        let denied = try await started.request("PUT", "/a.json", headers: ["Origin": "http://localhost:3000"], body: "2")
        #expect(denied.status == 401)
        #expect(denied.headers["access-control-allow-origin"] == "http://localhost:3000")
        #expect(denied.headers["access-control-expose-headers"] == "ETag, X-Rules-Explanation")
        #expect(denied.headers["x-rules-explanation"] != nil)
        let preflight = try await started.request("OPTIONS", "/a.json", headers: ["Origin": "http://localhost:3000", "Access-Control-Request-Method": "PUT"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "http://localhost:3000")
        #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
        await started.stop()
    }

    @Test func aBodyOverWhatIsLeftOfTheBudgetGets503WithRetryAfter() async throws {
        let started = try await StartedServer.start {
            $0.limits.maxBodyBytes = 1000
            $0.limits.maxBodyBytesInFlight = 1000
        }
        // One client announces 900 bytes and sends none: they are reserved while it waits.
        let holder = try LoopbackClient(port: started.port)
        defer { holder.close() }
        holder.send("PUT /held.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 900\r\n\r\n")
        var waited = 0
        while started.server.bodies.inUse < 900, waited < 1000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(started.server.bodies.inUse == 900)
        let refused = try await started.request("PUT", "/b.json", body: "\"" + String(repeating: "x", count: 198) + "\"")
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] != nil)
        #expect(refused.body.contains("too many request bodies"))
        #expect(try await started.request("PUT", "/c.json", body: "1").status == 200)
        #expect(try await started.request("GET", "/b.json").body == "null")
        holder.close()
        await started.stop()
    }

    @Test func anOversizedHeadGets431() async throws {
        let started = try await StartedServer.start()
        let client = try LoopbackClient(port: started.port)
        defer { client.close() }
        client.send("GET /a.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "y", count: 1024 * 1024) + "\r\n\r\n")
        client.finishSending()
        let answer = RawResponse(client.readAll())
        #expect(answer.status == 431)
        #expect(answer.body.contains("Request Header Fields Too Large"))
        await started.stop()
    }

    @Test func anAddressInUseIsAClearError() async throws {
        let started = try await StartedServer.start()
        var configuration = ServerConfiguration()
        configuration.port = started.port
        configuration.hostGiven = true
        configuration.coverage = false
        configuration.logFormat = .quiet
        let second = try RulesServer(configuration: configuration)
        let error = await #expect(throws: RulesServer.ListenError.self) { try await second.run() }
        #expect(error?.description == "cannot listen on 127.0.0.1:\(started.port): address already in use")
        await started.stop()
    }
}
