import RulesCompiler

/// The unknowns a rule expression reads besides the tree: the wildcards' keys, `now`, `auth` and
/// `query`, shared by every rule of one question.
final class QuestionScope {
    let smt: SMT
    /// The key each `$wildcard` takes.
    var keys: [String: Term] = [:]
    let now: Term
    /// `auth != null`.
    let signedIn: Term
    /// The uid, for a principal the solver picks.
    let uid: Term?
    private let principal: SolverPrincipal
    /// The values of the token claims the rules read, for a principal the solver picks.
    private(set) var claims: [String: Term] = [:]
    /// The query's fields (a plain read when `allowQuery` is false).
    private(set) var queryFields: [QueryField: Term] = [:]
    private let allowQuery: Bool

    init(smt: SMT, principal: SolverPrincipal, now: Double, allowQuery: Bool, world: SymbolicWorld) {
        self.smt = smt
        self.principal = principal
        self.now = smt.real(now)
        self.allowQuery = allowQuery
        switch principal {
        case .signedOut:
            signedIn = smt.false
            uid = nil
        case .user:
            signedIn = smt.true
            uid = nil
        case .anyUser(let excluded):
            signedIn = smt.true
            let u = world.stringVariable("uid")
            world.constraints.append(world.validKey(u))
            for x in excluded { world.constraints.append(smt.not(smt.eq(u, smt.string(x)))) }
            uid = u
        }
    }

    /// The value of `auth.<path>`.
    func auth(_ path: [String], _ world: SymbolicWorld) -> Term {
        switch principal {
        case .signedOut:
            return smt.null
        case .user(let uid, let provider, let token):
            return constant(Self.member(path, uid: uid, provider: provider, token: token))
        case .anyUser:
            let u = uid!
            switch path {
            case ["uid"], ["token", "sub"]: return smt.vstr(u)
            case ["provider"], ["token", "firebase", "sign_in_provider"]: return smt.vstr(smt.string("custom"))
            case ["token"], ["token", "firebase"]: return smt.obj
            default:
                guard path.count == 2, path[0] == "token" else {
                    return world.mode == .find ? smt.null : smt.variable("authFree", smt.valueSort)
                }
                if let c = claims[path[1]] { return c }
                let c = smt.variable("claim", smt.valueSort)
                // A claim the witness can carry: a primitive or nothing.
                world.constraints.append(smt.not(smt.isObj(c)))
                if world.mode == .find {
                    let s = smt.strOf(c)
                    world.constraints.append(smt.implies(smt.isStr(c), smt.and(smt.inRegex(s, smt.reStar(smt.reRange(0x20, 0x7E))), smt.intLE(smt.lengthInt(s), smt.int(64)))))
                }
                claims[path[1]] = c
                return c
            }
        }
    }

    /// `auth.<path>` of a user whose token holds `token`, as the engine builds it
    /// (`AuthValue.user`): `sub` is the uid and `firebase.sign_in_provider` the provider unless
    /// the token sets them.
    static func member(_ path: [String], uid: String, provider: String, token: [String: SolverValue]) -> SolverValue {
        switch path.first {
        case "uid": return path.count == 1 ? .string(uid) : .null
        case "provider": return path.count == 1 ? .string(provider) : .null
        case "token":
            if path.count == 1 { return .object }
            let name = path[1]
            if let v = token[name] { return path.count == 2 ? v : .null }
            if name == "sub" { return path.count == 2 ? .string(uid) : .null }
            if name == "firebase" {
                if path.count == 2 { return .object }
                return path.count == 3 && path[2] == "sign_in_provider" ? .string(provider) : .null
            }
            return .null
        default:
            return .null
        }
    }

    func constant(_ v: SolverValue) -> Term {
        switch v {
        case .null: smt.null
        case .bool(let b): smt.vbool(smt.bool(b))
        case .number(let d): smt.vnum(smt.real(d))
        case .string(let s): smt.vstr(smt.string(s))
        case .object: smt.obj
        }
    }

    /// A field of `query`.
    func query(_ field: QueryField) -> Term {
        if let t = queryFields[field] { return t }
        let t: Term
        switch field {
        case .orderByKey, .orderByPriority, .orderByValue:
            t = allowQuery ? smt.vbool(smt.variable(field.rawValue, smt.boolSort)) : smt.vbool(smt.false)
        case .orderByChild:
            t = allowQuery ? smt.ite(smt.variable("hasChild", smt.boolSort), smt.vstr(smt.variable("orderByChild", smt.stringSort)), smt.null) : smt.null
        case .startAt, .endAt, .equalTo:
            let v = smt.variable(field.rawValue, smt.valueSort)
            t = allowQuery ? smt.ite(smt.isObj(v), smt.null, v) : smt.null
        case .limitToFirst, .limitToLast:
            let n = smt.variable(field.rawValue, smt.realSort)
            t = allowQuery ? smt.ite(smt.variable("has" + field.rawValue, smt.boolSort), smt.vnum(n), smt.null) : smt.null
        }
        queryFields[field] = t
        return t
    }
}

/// Who asks, in a question.
package enum SolverPrincipal: Sendable {
    /// Signed out.
    case signedOut
    /// A given user: uid, provider and token claims (`AuthValue.user`).
    case user(uid: String, provider: String, token: [String: SolverValue])
    /// A signed-in user whose uid and token claims the solver picks (none of `excluded`).
    case anyUser(excluded: [String])
}
