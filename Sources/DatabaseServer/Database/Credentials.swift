import DatabaseRules
import Foundation
import Synchronization

/// The credentials a request carries, before they are turned into an ``Identity``.
///
/// A token comes from the `auth` query parameter, else `access_token`, else an
/// `Authorization: Bearer` header (that precedence is fixed). `owner` is the administrator; an
/// unsigned JWT (`alg: none`, as the emulator suite's tools make) is a user whose `auth.uid` is
/// its `sub` (or `user_id`), whose `auth.provider` is `firebase.sign_in_provider`, and whose
/// `auth.token` is the whole payload; its expiry is not checked. `auth_variable_override` (JSON)
/// makes an administrator act as that `auth` value, with every rule applied; any other caller
/// sending it is refused. From a browser page that is not on this machine (see
/// ``RequestOrigin``), `owner` is refused.
package struct Credentials: Sendable, Hashable {
    /// The token, if any.
    package var token: String?
    /// The raw `auth_variable_override` JSON, if any.
    package var authOverride: String?

    /// Credentials from a token and an override.
    package init(token: String? = nil, authOverride: String? = nil) {
        self.token = token
        self.authOverride = authOverride
    }

    /// The identity these credentials give, or the production error. A token longer than
    /// `maxTokenBytes` (``ServerLimits/maxTokenBytes``) is refused before it is decoded or kept.
    package func identity(origin: RequestOrigin, maxTokenBytes: Int = ServerLimits().maxTokenBytes) throws(ServerError) -> Identity {
        let base: Identity
        if let token, token.utf8.count > maxTokenBytes {
            throw ServerError(
                .permissionDenied,
                "Could not parse auth token: it is \(token.utf8.count) bytes, over this server's \(maxTokenBytes)-byte limit (rules serve --limit max-token-bytes=N).")
        }
        if let token, !token.isEmpty {
            if token == "owner" {
                guard origin.allowsAdministrator else { throw origin.administratorRefusal }
                base = .admin
            } else if let auth = Self.unsignedTokenAuth(token) {
                base = .user(auth)
            } else {
                throw .badToken
            }
        } else {
            base = .user(.null)
        }
        guard let authOverride else { return base }
        guard base == .admin else {
            throw ServerError(.permissionDenied, "Permission denied",
                              explanation: "auth_variable_override is honoured only for an administrator (Bearer owner)")
        }
        guard let auth = AuthValue(jsonText: authOverride) else {
            throw ServerError(.badRequest, "Invalid auth_variable_override: not JSON.")
        }
        switch auth {
        case .null, .object: return .user(auth)
        default: throw ServerError(.badRequest, "Invalid auth_variable_override: must be an object or null.")
        }
    }

    /// Whether a WebSocket connection or request whose `Origin` header is `origin` (nil: none)
    /// may use the administrator's credentials (see ``RequestOrigin/allowsAdministrator``).
    package static func allowsAdministrator(origin: String?, fetchSite: String? = nil, authority: String? = nil) -> Bool {
        RequestOrigin(origin: origin, fetchSite: fetchSite, authority: authority).allowsAdministrator
    }

    /// Tokens already decoded (a client sends the same one with every request). Bounded: the
    /// cache is emptied when it reaches ``tokenCacheLimit`` entries.
    private static let decoded = Mutex<[String: AuthValue]>([:])
    /// The most decoded tokens kept.
    static let tokenCacheLimit = 1024
    /// The longest token kept in the cache (longer ones are decoded each time), so that the
    /// cache holds at most about 4 MB of tokens and their claims.
    static let cachedTokenBytes = 4096

    /// The `auth` value of an unsigned JWT, or nil when the text is not one.
    static func unsignedTokenAuth(_ token: String) -> AuthValue? {
        if let known = decoded.withLock({ $0[token] }) { return known }
        guard let auth = decodeUnsignedToken(token) else { return nil }
        guard token.utf8.count <= cachedTokenBytes else { return auth }
        decoded.withLock { cache in
            if cache.count >= tokenCacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[token] = auth
        }
        return auth
    }

    private static func decodeUnsignedToken(_ token: String) -> AuthValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].isEmpty,
              let header = decodeSegment(parts[0]), let payload = decodeSegment(parts[1]),
              case .object(let h) = header, h["alg"] == .string("none"),
              case .object(let claims) = payload
        else { return nil }
        let uid: String
        if case .string(let sub)? = claims["sub"], !sub.isEmpty {
            uid = sub
        } else if case .string(let id)? = claims["user_id"], !id.isEmpty {
            uid = id
        } else {
            return nil
        }
        var provider = "custom"
        if case .object(let firebase)? = claims["firebase"], case .string(let p)? = firebase["sign_in_provider"] {
            provider = p
        }
        return .object(["uid": .string(uid), "provider": .string(provider), "token": payload])
    }

    /// One base64url segment of a JWT, parsed as JSON.
    private static func decodeSegment(_ segment: Substring) -> AuthValue? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), let json = String(data: data, encoding: .utf8) else { return nil }
        return AuthValue(jsonText: json)
    }
}
