import RulesCompiler
/// A concrete counterexample for a security finding: who acts, the data before, and one or a
/// few operations, each with the verdict it must get and (once run) the verdict the engine gave.
///
/// The linter proposes candidates (``LintFinding/witnessCandidates``) without running anything;
/// `RulesLint.WitnessSearch` runs them through the engine and keeps the first whose every step
/// got the verdict it expects (``LintFinding/witness``).
package struct LintWitness: Sendable, Hashable {
    /// Who performs the operations.
    package enum Identity: Sendable, Hashable {
        /// Signed out (`auth == null`).
        case anonymous
        /// A signed-in user who owns nothing in the starting data.
        case stranger(uid: String)
        /// The signed-in user whose key the path uses.
        case owner(uid: String)
        /// A signed-in user whom data the rules read grants a privilege (a role, a flag, a
        /// membership), e.g. `/users/{auth.uid}/role = "admin"`; the witness's data holds it.
        case holder(uid: String, privilege: String)
        /// A signed-in user whose token carries a custom claim (`auth.token.admin = true`), which
        /// no client can give itself.
        case claimant(uid: String, claim: String, value: WitnessValue)
        /// A signed-in user whose uid or token the rules single out (a uid compared with a
        /// literal, an e-mail domain, a verified e-mail), as the solver picked them.
        case named(uid: String, claims: [String: WitnessValue])

        /// The uid, nil when signed out.
        package var uid: String? {
            switch self {
            case .anonymous: nil
            case .stranger(let uid), .owner(let uid), .holder(let uid, _), .claimant(let uid, _, _), .named(let uid, _): uid
            }
        }

        /// The token's custom claims (`claimant` only).
        package var claims: [String: WitnessValue] {
            switch self {
            case .claimant(_, let claim, let value): [claim: value]
            case .named(_, let claims): claims
            default: [:]
            }
        }

        /// `anonymous`, `stranger`, `owner`, `holder`, `claimant`.
        package var role: String {
            switch self {
            case .anonymous: "anonymous"
            case .stranger: "stranger"
            case .owner: "owner"
            case .holder: "holder"
            case .claimant: "claimant"
            case .named: "named"
            }
        }

        /// `anonymous (signed out)`, `a signed-in stranger (uid mallory)`...
        package var description: String {
            switch self {
            case .anonymous: "anonymous (signed out)"
            case .stranger(let uid): "a signed-in stranger (uid \(uid))"
            case .owner(let uid): "the owner (uid \(uid))"
            case .holder(let uid, let privilege): "a holder of \(privilege) (uid \(uid))"
            case .claimant(let uid, let claim, let value): "a user whose token has \(claim) = \(value.json) (uid \(uid))"
            case .named(let uid, let claims):
                "a user the rules name (uid \(uid)" + (claims.isEmpty ? "" : ", token \(WitnessValue.object(claims).json)") + ")"
            }
        }
    }

    /// One operation.
    package struct Step: Sendable, Hashable {
        /// The kind of operation.
        package enum Operation: String, Sendable, Hashable {
            case read, set, update, delete
        }

        package var operation: Operation
        /// The absolute path, e.g. `/users/mallory/role`.
        package var path: String
        /// The value written (`set`; for `update`, an object of relative paths).
        package var value: WitnessValue?
        /// The verdict the witness needs.
        package var expectAllowed: Bool
        /// The verdict the engine gave (nil until run).
        package var allowed: Bool?
        /// Why the step is there, e.g. `make yourself an administrator`.
        package var note: String
        /// A read's query fields (`orderByChild`, `equalTo`, ...), empty for a plain read.
        package var query: [String: WitnessValue] = [:]

        package init(_ operation: Operation, _ path: String, value: WitnessValue? = nil, expectAllowed: Bool = true, note: String) {
            self.operation = operation
            self.path = path
            self.value = value
            self.expectAllowed = expectAllowed
            self.note = note
        }

        /// `set /users/mallory/role = "admin"`.
        package var summary: String {
            var s = "\(operation.rawValue) \(path)"
            if !query.isEmpty { s += "?" + query.keys.sorted().map { "\($0)=\(query[$0]!.json)" }.joined(separator: "&") }
            if let value { s += " = \(value.shortJSON)" }
            return s
        }
    }

    package var identity: Identity
    /// The data before the first step (nil: an empty database).
    package var data: WitnessValue?
    package var steps: [Step]

    package init(identity: Identity, data: WitnessValue? = nil, steps: [Step]) {
        self.identity = identity
        self.data = data
        self.steps = steps
    }

    /// Every step ran and got the verdict it needs.
    package var confirmed: Bool { steps.allSatisfy { $0.allowed == $0.expectAllowed } }

    /// The witness as text lines, e.g. `as a signed-in stranger (uid mallory), with data {...}:`,
    /// then `1. set /x = 1 → allowed (expected allowed): note`.
    package var lines: [String] {
        var out = ["as \(identity.description), starting from " + (data.flatMap { $0 == .object([:]) ? nil : "the data \($0.shortJSON)" } ?? "an empty database") + ":"]
        for (i, s) in steps.enumerated() {
            let verdict = s.allowed.map { $0 ? "allowed" : "denied" } ?? "not run"
            out.append("\(i + 1). \(s.summary) → \(verdict) by the engine (\(s.note))")
        }
        return out
    }
}
