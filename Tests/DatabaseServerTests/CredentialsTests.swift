import DatabaseRules
import Foundation
import Testing

@testable import DatabaseServer

/// Tokens and `auth_variable_override`.
@Suite struct CredentialsTests {
    /// An unsigned token as the emulator suite's tools make it.
    static func mockToken(_ payload: String) -> String {
        func segment(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return segment(#"{"alg":"none","type":"JWT"}"#) + "." + segment(payload) + "."
    }

    @Test func ownerIsTheAdministrator() throws {
        #expect(try Credentials(token: "owner").identity(origin: .local) == .admin)
        #expect(try Credentials().identity(origin: .local) == .user(.null))
    }

    @Test func anUnsignedTokenGivesUidProviderAndClaims() throws {
        let token = Self.mockToken(#"{"iat":0,"exp":3600,"sub":"alice","firebase":{"sign_in_provider":"password"},"admin":true}"#)
        let identity = try Credentials(token: token).identity(origin: .local)
        #expect(identity.uid == "alice")
        #expect(identity.auth?["provider"] == .string("password"))
        #expect(identity.auth?["token"]["admin"] == .bool(true))
        #expect(identity.auth?["token"]["exp"] == .number(3600))
    }

    @Test(arguments: ["garbage", "a.b.c", mockToken(#"{"iat":0}"#), "eyJhbGciOiJSUzI1NiJ9.e30.c2ln"])
    func anythingElseCannotBeParsed(token: String) {
        #expect(throws: ServerError.badToken) { try Credentials(token: token).identity(origin: .local) }
    }

    @Test func theOverrideIsForTheAdministratorOnly() throws {
        #expect(try Credentials(token: "owner", authOverride: #"{"uid":"bob"}"#).identity(origin: .local).uid == "bob")
        #expect(try Credentials(token: "owner", authOverride: "null").identity(origin: .local) == .user(.null))
        let user = Self.mockToken(#"{"sub":"eve"}"#)
        #expect(throws: ServerError.self) { try Credentials(token: user, authOverride: #"{"uid":"bob"}"#).identity(origin: .local) }
        #expect(throws: ServerError.self) { try Credentials(authOverride: #"{"uid":"bob"}"#).identity(origin: .local) }
        #expect(throws: ServerError.self) { try Credentials(token: "owner", authOverride: "{not json").identity(origin: .local) }
    }

    @Test func aTokenOverTheLimitIsRefusedBeforeItIsDecoded() throws {
        let claims = #"{"sub":"alice","pad":""# + String(repeating: "x", count: 200) + #""}"#
        let token = Self.mockToken(claims)
        #expect(try Credentials(token: token).identity(origin: .local, maxTokenBytes: token.utf8.count).uid == "alice")
        do {
            _ = try Credentials(token: token).identity(origin: .local, maxTokenBytes: token.utf8.count - 1)
            Issue.record("a token over the limit was accepted")
        } catch {
            #expect(error.kind == .permissionDenied)
            #expect(error.message == "Could not parse auth token: it is \(token.utf8.count) bytes, over this server's \(token.utf8.count - 1)-byte limit (rules serve --limit max-token-bytes=N).")
        }
    }
}
