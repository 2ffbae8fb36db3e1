import RulesCompiler

/// Who acts in the access model: a row of its table.
///
/// `anonymous` is signed out; `stranger` is a signed-in user (uid `mallory`) whom no data names;
/// `owner` is the user (uid `alice`) whose uid the location's `$wildcard`s or owner fields take;
/// `holder` is a signed-in user (uid `carol`) whom data the rules read grants a privilege;
/// `claimant` a signed-in user (uid `carol`) whose token carries a custom claim.
package enum AccessPrincipal: Hashable, Sendable {
    case anonymous
    case stranger
    case owner
    case holder(Privilege)
    case claimant(Claim)
    /// A signed-in user whose uid or token values the rules compare with literals: the solver
    /// picks them (uid `admin-1`, an e-mail at a domain, a verified e-mail).
    case named

    /// The uid of the stranger (the attacker).
    package static let strangerUID = WitnessPlanner.attacker
    /// The uid of the owner (the victim whose records the data holds).
    package static let ownerUID = WitnessPlanner.victim
    /// The uid of a privilege or claim holder.
    package static let holderUID = "carol"
    /// The uid of a named user until the solver picks one.
    package static let namedUID = "named"

    /// `anonymous`, `stranger`, `owner`, `role:/users/{auth.uid}/role = "admin"`, `claim:admin`.
    package var name: String {
        switch self {
        case .anonymous: "anonymous"
        case .stranger: "stranger"
        case .owner: "owner"
        case .holder(let p): "role:" + p.description
        case .claimant(let c): "claim:" + c.name
        case .named: "named"
        }
    }

    /// How the principal reads in a report.
    package var phrase: String {
        switch self {
        case .anonymous: "anyone signed out"
        case .stranger: "a signed-in stranger"
        case .owner: "the owner"
        case .holder(let p): "a holder of \(p.description)"
        case .claimant(let c): "a user whose token has \(c.name) = \(c.value.json)"
        case .named: "a user the rules name"
        }
    }

    /// The uid the principal signs in with, nil when signed out.
    package var uid: String? {
        switch self {
        case .anonymous: nil
        case .stranger: Self.strangerUID
        case .owner: Self.ownerUID
        case .holder, .claimant: Self.holderUID
        case .named: Self.namedUID
        }
    }

    /// The witness identity of the principal.
    package var identity: LintWitness.Identity {
        switch self {
        case .anonymous: .anonymous
        case .stranger: .stranger(uid: Self.strangerUID)
        case .owner: .owner(uid: Self.ownerUID)
        case .holder(let p): .holder(uid: Self.holderUID, privilege: p.description)
        case .claimant(let c): .claimant(uid: Self.holderUID, claim: c.name, value: c.value)
        case .named: .named(uid: Self.namedUID, claims: [:])
        }
    }

    /// True for principals whose access comes from something they hold (data or a claim).
    package var isPrivileged: Bool {
        switch self {
        case .holder, .claimant, .named: true
        default: false
        }
    }
}

/// A privilege that data grants: a location the rules look the caller up in (a role, a flag, a
/// membership: `/users/{auth.uid}/role = "admin"`), or a link that names the caller
/// (`/events/$eventId/organizerId = {auth.uid}`).
package struct Privilege: Hashable, Sendable {
    package var segments: [RootLookup.Segment]
    /// The value the rules need there.
    package var needed: WitnessValue
    /// The rules need the caller's uid there.
    package var neededIsCaller: Bool
    /// The rules need only that something is there.
    package var existence: Bool

    /// A registration rather than a privilege: the caller's own entry in a global list
    /// (`root.child('users').child(auth.uid).exists()`), which every user makes for himself
    /// when he signs up. Strangers are taken to have made theirs when the rules let them.
    package var isRegistration: Bool {
        existence && segments.last == .caller && !segments.contains { if case .wildcard = $0 { true } else { false } }
    }

    /// `/users/{auth.uid}/role = "admin"`.
    package var description: String {
        "/" + segments.map(\.text).joined(separator: "/") + " = " + (neededIsCaller ? "{auth.uid}" : needed.json)
    }

    /// The path and value that grant the privilege to `uid`, each `$wildcard` taking `keys[name]`
    /// or `fallback`.
    package func grant(uid: String, keys: [String: String], fallback: String = "k1") -> (path: [String], value: WitnessValue) {
        var path: [String] = []
        for s in segments {
            switch s {
            case .key(let k): path.append(k)
            case .caller: path.append(uid)
            case .wildcard(let name): path.append(keys[name] ?? fallback)
            }
        }
        return (path, neededIsCaller ? .string(uid) : needed)
    }

    init(_ lookup: RootLookup) {
        segments = lookup.segments
        needed = lookup.needed
        neededIsCaller = lookup.neededIsCaller
        existence = lookup.existence
    }
}

/// A custom claim the rules test (`auth.token.admin === true`), with the value that passes.
package struct Claim: Hashable, Sendable {
    package var name: String
    package var value: WitnessValue
}
