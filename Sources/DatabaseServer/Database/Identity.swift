import DatabaseRules

/// Who a request or connection acts as, made once from its credentials and shared by every
/// transport.
package enum Identity: Sendable, Hashable, CustomStringConvertible {
    /// An administrator (`Authorization: Bearer owner`): rules are not evaluated, as in the
    /// emulator. Limits, key checks and `.indexOn` still apply.
    case admin
    /// A caller the rules decide for, with its `auth` value (``AuthValue/null`` when signed out).
    case user(AuthValue)

    /// The `auth` variable the rules see (nil for an administrator).
    package var auth: AuthValue? {
        if case .user(let auth) = self { return auth }
        return nil
    }

    /// `auth.uid`, when there is one.
    package var uid: String? {
        if case .user(let auth) = self, case .string(let uid) = auth["uid"] { return uid }
        return nil
    }

    /// `admin`, `uid alice`, or `unauthenticated`.
    package var description: String {
        switch self {
        case .admin: "admin"
        case .user(let auth):
            if let uid { "uid \(uid)" } else if auth == .null { "unauthenticated" } else { "auth without uid" }
        }
    }
}
