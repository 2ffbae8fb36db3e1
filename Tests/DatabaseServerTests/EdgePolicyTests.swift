import DatabaseRules
import Foundation
import Testing

@testable import DatabaseServer

/// Who may reach the server and as whom: the `Host` check against DNS rebinding, the
/// administrator only from pages on this machine, and the CORS answers.
@Suite struct EdgePolicyTests {
    static let hosts: [(authority: String?, allowed: Bool)] = [
        (nil, true),
        ("localhost", true), ("localhost:9000", true), ("LOCALHOST:9000", true), ("localhost.:9000", true),
        ("app.localhost:3000", true),
        ("127.0.0.1:9000", true), ("10.0.2.2:9000", true), ("192.168.1.5", true), ("0.0.0.0:9000", true),
        ("[::1]:9000", true), ("[fe80::1]", true), ("[::1]", true),
        ("evil.example", false), ("evil.example:9000", false), ("localhost.evil.example", false),
        ("127.0.0.1.nip.io", false), ("256.1.1.1", false), ("1.2.3", false), ("", false),
        ("localhost:abc", false), ("user@localhost", false), ("[::1", false), ("myhost.lan", false),
        // Strict: a bracketed host is an IPv6 address, a port is 1–5 ASCII digits up to 65535.
        ("[a:evil.example]", false), ("[a:evil.example]:9000", false), ("[::1]:65535", true), ("[::1]:65536", false),
        ("localhost:65536", false), ("localhost:99999", false), ("localhost:000009000", false), ("localhost:", false),
        ("localhost:\u{663}", false), ("local host", false), ("localhost\u{0}", false), ("lo_calhost", false),
    ]

    @Test(arguments: hosts) func hostNamesMustBeLoopbackOrAllowed(authority: String?, allowed: Bool) {
        #expect(HostPolicy().allows(authority: authority) == allowed)
    }

    @Test func allowedHostNamesAreAnsweredWhateverTheirCase() {
        let policy = HostPolicy(allowedNames: ["MyHost.lan"])
        #expect(policy.allows(authority: "myhost.lan:9000"))
        #expect(policy.allows(authority: "MYHOST.LAN"))
        #expect(!policy.allows(authority: "other.lan"))
    }

    static let origins: [(origin: String?, fetchSite: String?, authority: String?, owner: Bool)] = [
        (nil, nil, nil, true),
        (nil, "same-origin", nil, true),
        (nil, "none", nil, true),
        (nil, "cross-site", nil, false),
        ("http://localhost:5173", nil, nil, true),
        ("https://localhost", nil, nil, true),
        ("http://app.localhost:3000", "cross-site", nil, true),
        ("http://127.0.0.1:9876", nil, nil, true),
        ("http://127.9.9.9", nil, nil, true),
        ("http://[::1]:8080", nil, nil, true),
        ("https://evil.example", nil, nil, false),
        ("http://192.168.1.5:3000", nil, "127.0.0.1:9000", false),
        // The server's own page, opened at an address other machines may use: not this machine.
        ("http://192.168.1.5:9000", nil, "192.168.1.5:9000", false),
        ("http://127.0.0.1:9000", nil, "127.0.0.1:9000", true),
        // A page reaching the server through 0.0.0.0 may send no Origin, Referer or
        // Sec-Fetch-Site (no-referrer, not a secure context): the Host says it is not loopback.
        (nil, nil, "0.0.0.0:9000", false),
        (nil, nil, "192.168.1.5:9000", false),
        (nil, nil, "[::]:9000", false),
        (nil, nil, "localhost:9000", true),
        (nil, nil, "[::1]:9000", true),
        (nil, nil, "127.0.0.1", true),
        ("http://localhost.evil.example", nil, nil, false),
        ("null", nil, nil, false),
        ("file://", nil, nil, false),
        ("ws://localhost", nil, nil, false),
    ]

    @Test(arguments: origins) func theAdministratorIsAcceptedOnlyFromPagesOnThisMachine(
        origin: String?, fetchSite: String?, authority: String?, owner: Bool
    ) {
        #expect(Credentials.allowsAdministrator(origin: origin, fetchSite: fetchSite, authority: authority) == owner)
    }

    /// The identity `owner` gives, or the error, for a request from `origin`.
    static func owner(from origin: RequestOrigin) -> Result<Identity, ServerError> {
        Result { () throws(ServerError) -> Identity in try Credentials(token: "owner").identity(origin: origin) }
    }

    @Test func ownerIsRefusedWhileAForeignOriginIsInForce() throws {
        guard case .failure(let refusal) = Self.owner(from: RequestOrigin(origin: "https://evil.example")) else {
            Issue.record("owner was accepted from https://evil.example")
            return
        }
        #expect(refusal.kind == .permissionDenied)
        #expect(refusal.message.contains("https://evil.example"))
        #expect(try Self.owner(from: RequestOrigin(origin: "http://localhost:9876")).get() == .admin)
        #expect(try Self.owner(from: .local).get() == .admin)
        let anonymous = try? Credentials().identity(origin: RequestOrigin(origin: "https://evil.example"))
        #expect(anonymous == .user(.null))
    }

    /// A door that knows nothing of a request passes ``RequestOrigin/unknown``: the
    /// administrator is refused (there is no default that would let it through).
    @Test func anUnknownOriginIsRefusedTheAdministrator() {
        guard case .failure(let refusal) = Self.owner(from: .unknown) else {
            Issue.record("owner was accepted from an unknown origin")
            return
        }
        #expect(refusal.kind == .permissionDenied)
    }

    @Test func theAdministratorIsRefusedThroughTheUnspecifiedAddress() {
        guard case .failure(let refusal) = Self.owner(from: RequestOrigin(authority: "0.0.0.0:9000")) else {
            Issue.record("owner was accepted through 0.0.0.0")
            return
        }
        #expect(refusal.message.contains("loopback address of this machine"))
        #expect(refusal.message.contains("0.0.0.0:9000"))
    }

    @Test func theBodyBudgetIsSharedAndGivenBack() throws {
        let budget = BodyBudget(total: 100)
        let first = BodyBudget.Lease(budget), second = BodyBudget.Lease(budget)
        try first.reserve(60)
        try first.reserve(20)
        #expect(throws: ServerError.self) { try second.reserve(30) }
        #expect(budget.inUse == 80)
        first.end()
        #expect(budget.inUse == 0)
        try second.reserve(100)
        second.end()
        first.end()
        #expect(budget.inUse == 0)
    }

    @Test func loopbackAddressesToListenOn() {
        for address in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] { #expect(HostPolicy.isLoopbackAddress(address), "\(address)") }
        for address in ["0.0.0.0", "::", "192.168.1.5", "example.lan"] { #expect(!HostPolicy.isLoopbackAddress(address), "\(address)") }
    }
}
