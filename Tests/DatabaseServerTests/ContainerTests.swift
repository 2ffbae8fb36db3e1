import DatabaseRules
import Foundation
import HTTPTypes
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import DatabaseServer

/// `rules serve --host 0.0.0.0 --allow-host rtdb` in a container, with firebase-admin in
/// another (`FIREBASE_DATABASE_EMULATOR_HOST=rtdb:9000`) and a web app opened in the developer's
/// browser (the compose file of `docs/server.md`, "Containers"): the requests those containers
/// send, replayed on loopback with their `Host` and browser headers, and who gets the
/// administrator.
@Suite(.serialized) struct ContainerTests {
    static let rules = #"{"rules": {".read": "auth != null", ".write": false}}"#
    static let owner = ["Authorization": "Bearer owner"]
    static let alice = ["Authorization": "Bearer " + CredentialsTests.mockToken(#"{"sub":"alice"}"#)]

    @Test func theAdministratorToolInAContainerIsTheAdministratorAndPagesAreNot() async throws {
        let started = try await StartedServer.start(rules: Self.rules) { $0.allowedHosts = ["rtdb"] }
        // firebase-admin (REST calls and its WebSocket): Host rtdb:9000, no browser header.
        let seeded = try await started.request("PUT", "/config.json", host: "rtdb:9000", headers: Self.owner.merging(["User-Agent": "Firebase/5/node"]) { a, _ in a }, body: #"{"theme":"dark"}"#)
        #expect(seeded.status == 200, "\(seeded.body)")
        #expect(try await Self.webSocketAuth(port: started.port, host: "rtdb:9000", headers: [:]) == "ok")
        // The web app in the developer's browser: the page at http://localhost:8080 reaches the
        // published port as localhost:9000. A signed-in user is decided by the rules.
        let page = ["Origin": "http://localhost:8080", "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors"]
        let read = try await started.request("GET", "/config.json", host: "localhost:9000", headers: page.merging(Self.alice) { a, _ in a })
        #expect(read.status == 200 && read.body.contains("dark"))
        #expect(try await started.request("PUT", "/config.json", host: "localhost:9000", headers: page.merging(Self.alice) { a, _ in a }, body: "1").status == 401)
        // A page on this machine may be the administrator at a loopback Host, as before.
        #expect(try await started.request("GET", "/config.json", host: "localhost:9000", headers: page.merging(Self.owner) { a, _ in a }).status == 200)
        // No page is the administrator at the allowed name: one served from a container, one
        // from elsewhere, one hiding its origin but sending Referer or Sec-Fetch-*.
        for browser in [
            ["Origin": "http://web:8080"], ["Origin": "https://evil.example"], ["Origin": "http://localhost:8080"],
            ["Referer": "http://web:8080/"], ["Sec-Fetch-Mode": "no-cors"], ["Sec-Fetch-Site": "same-origin"],
        ] {
            let refused = try await started.request("GET", "/config.json", host: "rtdb:9000", headers: browser.merging(Self.owner) { a, _ in a })
            #expect(refused.status == 401, "\(browser)")
            #expect(refused.body.contains("Administrator credentials"), "\(browser)")
        }
        #expect(try await Self.webSocketAuth(port: started.port, host: "rtdb:9000", headers: ["Origin": "http://web:8080"]) == "invalid_token")
        // The container's address, and a name not allowed with --allow-host.
        #expect(try await started.request("GET", "/config.json", host: "172.18.0.2:9000", headers: Self.owner).status == 401)
        #expect(try await started.request("GET", "/config.json", host: "db:9000", headers: Self.owner).status == 403)
        // Anyone else at the allowed name is decided by the rules.
        #expect(try await started.request("GET", "/config.json", host: "rtdb:9000").status == 401)
        #expect(try await started.request("GET", "/config.json", host: "rtdb:9000", headers: Self.alice).status == 200)
        await started.stop()
    }

    /// What the start-up banner says matches what the server decides, at every address.
    @Test func theBannerSaysWhoIsTheAdministratorAtEachAddress() {
        let exposed = AdministratorNotice(host: "0.0.0.0", port: 9000, allowedHosts: ["rtdb"]).lines
        let text = exposed.joined(separator: "\n")
        #expect(text.contains("at http://localhost:9000, http://127.0.0.1:9000, http://[::1]:9000: from programs, and from browser pages on this machine"))
        #expect(text.contains("at http://rtdb:9000 (--allow-host): from programs only (no Origin, Referer or Sec-Fetch-* header), never from a browser page"))
        #expect(text.contains("at any other name or address (such as this machine's other addresses): from nobody"))
        #expect(exposed.last?.hasPrefix("warning: listening on 0.0.0.0, not a loopback address") == true)
        #expect(text.contains("Host: localhost or rtdb"))
        #expect(!text.contains("every client that can reach it can read and write everything"))
        let loopback = AdministratorNotice(host: "127.0.0.1", port: 9000, allowedHosts: []).lines
        #expect(!loopback.joined().contains("warning"))
        #expect(!loopback.joined().contains("--allow-host"))
        // The decisions those lines describe.
        let hosts = HostPolicy(allowedNames: ["rtdb"])
        func owner(_ authority: String, _ headers: [String: String]) -> Bool {
            var fields = HTTPFields()
            for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
            return RequestOrigin(headers: fields, authority: authority, hosts: hosts).allowsAdministrator
        }
        for address in ["localhost:9000", "127.0.0.1:9000", "[::1]:9000"] {
            #expect(owner(address, [:]), "\(address)")
            #expect(owner(address, ["Origin": "http://localhost:3000"]), "\(address)")
            #expect(!owner(address, ["Origin": "https://evil.example"]), "\(address)")
        }
        #expect(owner("rtdb:9000", [:]))
        #expect(owner("RTDB", [:]))
        #expect(!owner("rtdb:9000", ["Origin": "http://localhost:3000"]))
        #expect(!owner("rtdb:9000", ["Referer": "http://localhost:3000/"]))
        #expect(!owner("rtdb:9000", ["Sec-Fetch-Dest": "image"]))
        for address in ["0.0.0.0:9000", "192.168.1.5:9000", "172.18.0.2:9000", "other:9000"] {
            #expect(!owner(address, [:]), "\(address)")
        }
    }

    /// Opens `/.ws` on loopback with `Host: host` and `headers`, sends `auth` with `owner`, and
    /// returns the reply's status. The blocking socket runs on a thread of its own.
    static func webSocketAuth(port: Int, host: String, headers: [String: String]) async throws -> String {
        var head = "GET /.ws?v=5&ns=demo HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = head + "\r\n"
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let client = try LoopbackClient(port: port)
                    defer { client.close() }
                    client.send(request)
                    let upgraded = client.read(until: "\r\n\r\n")
                    guard upgraded.hasPrefix("HTTP/1.1 101") else { return "not upgraded: \(upgraded.prefix(40))" }
                    // One masked text frame (a zero mask leaves the payload as it is).
                    let message = Array(#"{"t":"d","d":{"r":1,"a":"auth","b":{"cred":"owner"}}}"#.utf8)
                    client.send([0x81, 0x80 | UInt8(message.count), 0, 0, 0, 0] + message)
                    let marker = #""r":1,"b":{"s":""#
                    let reply = client.read(until: marker)
                    guard let start = reply.range(of: marker)?.upperBound else { return "no reply" }
                    var status = String(reply[start...].prefix { $0 != "\"" })
                    if !reply[start...].contains("\"") { status += client.read(until: "\"").prefix { $0 != "\"" } }
                    return status
                })
            }
        }
    }
}
