/// A value inside the `auth` variable: the signed-in user's `uid`, `provider`, `token` claims, or
/// anything an embedding server passes (spec §4.2).
public indirect enum AuthValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case object([String: AuthValue])
    case array([AuthValue])

    /// The member with this name (null when absent or when this is not an object).
    public subscript(key: String) -> AuthValue {
        if case .object(let o) = self { return Self.member(of: o, key) }
        return .null
    }

    /// The member `name` of an object's members, null when there is none. Names compare by
    /// their bytes, as JavaScript compares property names: the `Dictionary` look-up alone would
    /// take canonically equivalent names ("é" and "e\u{301}") for the same one, so the key it
    /// finds is checked.
    static func member(of members: [String: AuthValue], _ name: String) -> AuthValue {
        guard let i = members.index(forKey: name), KeyOrder.sameBytes(members.keys[i], name) else { return .null }
        return members.values[i]
    }

    /// The `auth` value of a user: `{uid, provider, token}`, where `token` holds the given claims
    /// plus `sub = uid` and `firebase.sign_in_provider = provider` unless the claims set them.
    public static func user(uid: String, provider: String = "custom", claims: [String: AuthValue] = [:]) -> AuthValue {
        var token = claims
        if token["sub"] == nil { token["sub"] = .string(uid) }
        var firebase: [String: AuthValue] = [:]
        if case .object(let f) = token["firebase"] ?? .null { firebase = f }
        if firebase["sign_in_provider"] == nil { firebase["sign_in_provider"] = .string(provider) }
        token["firebase"] = .object(firebase)
        return .object(["uid": .string(uid), "provider": .string(provider), "token": .object(token)])
    }
}

extension AuthValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByNilLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, AuthValue)...) {
        var o: [String: AuthValue] = [:]
        for (k, v) in elements { o[k] = v }
        self = .object(o)
    }
    public init(arrayLiteral elements: AuthValue...) { self = .array(elements) }
}
