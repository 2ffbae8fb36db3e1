/// The fields the server puts in `auth`, with the type of each value.
///
/// The type checker gives `auth` and everything reached from it one type, `dynamicMap` (any
/// property is allowed and looked up at run time), so the types of the known fields come from
/// here: completion lists them, hover names the type of the one under the cursor.
package struct AuthField: Sendable {
    /// The field's path below `auth`, e.g. `["token", "email"]`.
    package let path: [String]
    /// The type of its value: `string`, `boolean` or `object`.
    package let type: String
    /// What completion shows beside the name.
    package let detail: String

    package var name: String { path.last ?? "" }

    package static let all: [AuthField] = [
        AuthField(path: ["uid"], type: "string", detail: "string: the user's id"),
        AuthField(path: ["provider"], type: "string", detail: "string: the sign-in method"),
        AuthField(path: ["token"], type: "object", detail: "the ID token's claims"),
        AuthField(path: ["token", "email"], type: "string", detail: "string"),
        AuthField(path: ["token", "email_verified"], type: "boolean", detail: "boolean"),
        AuthField(path: ["token", "phone_number"], type: "string", detail: "string"),
        AuthField(path: ["token", "name"], type: "string", detail: "string"),
        AuthField(path: ["token", "sub"], type: "string", detail: "string: the uid"),
        AuthField(path: ["token", "firebase"], type: "object", detail: "identities, sign_in_provider"),
        AuthField(path: ["token", "firebase", "identities"], type: "object", detail: "the user's linked identities"),
        AuthField(path: ["token", "firebase", "sign_in_provider"], type: "string", detail: "string"),
    ]

    /// The fields directly below `parent` (`[]` for `auth` itself), in order.
    package static func members(of parent: [String]) -> [AuthField] {
        all.filter { $0.path.count == parent.count + 1 && Array($0.path.dropLast()) == parent }
    }

    /// The type of the value at `path` below `auth`, as hover shows it: a known field's type; a
    /// string's `length`; any other claim of the token is a custom claim, known only at run time.
    package static func valueType(at path: [String]) -> String {
        if path.isEmpty { return "object or null (null when signed out)" }
        if let field = all.first(where: { $0.path == path }) { return field.type }
        if path.last == "length", let parent = all.first(where: { $0.path == Array(path.dropLast()) }), parent.type == "string" {
            return "number"
        }
        if path.first == "token" { return "any JSON value (a custom claim, known at run time)" }
        return "any value (not a field the server sets, so null at run time)"
    }
}
