import DatabaseRules
import RulesCompiler
import RulesSyntax

/// Computes an ``AccessModel``: finds the locations, owners, privileges and claims the rules
/// speak of, then decides every cell with candidate witnesses run through the engine, and
/// tries each privilege a stranger lacks as an escalation (obtain it with allowed writes, then
/// act).
struct AccessModelBuilder {
    private var runner: AccessRunner
    private let tree: RuleNode
    private var ownerWildcards: Set<String> = []
    private var privileges: [Privilege] = []
    /// Registrations (see ``Privilege/isRegistration``): not principals of their own.
    private var registrations: [Privilege] = []
    private var uses: [Privilege: [RuleReference]] = [:]
    private var claims: [Claim] = []
    /// Whether a rule compares the caller's uid or token with a literal.
    private var namesUsers = false
    private let budget: AccessModel.SolverBudget?
    private var solver: AccessSolverCells?

    init(rules: Ruleset, tree: RuleNode, solver: AccessModel.SolverBudget? = nil) {
        runner = AccessRunner(rules: rules, tree: tree)
        self.tree = tree
        budget = solver
    }

    mutating func build() -> AccessModel {
        scan()
        let locations = findLocations()
        var principals: [AccessPrincipal] = [.anonymous, .stranger, .owner]
        principals += privileges.map { .holder($0) }
        principals += claims.map { .claimant($0) }
        if let budget {
            solver = AccessSolverCells(budget: budget, tree: tree, ownerWildcards: ownerWildcards)
            if namesUsers && !budget.threatsOnly { principals.append(.named) }
        }
        var cells: [AccessCell] = []
        // With `threatsOnly`, the solver's questions wait until the search has decided every
        // cell, and are asked most telling first, so that a file's budget goes where findings are.
        var pending: [Int] = []
        let deferred = budget?.threatsOnly == true
        for location in locations {
            let world = AccessWorld(location, links: privileges + registrations, ownerWildcards: ownerWildcards)
            for operation in location.operations {
                var row: [AccessCell] = []
                for principal in principals {
                    row.append(decide(location, world, principal, operation))
                }
                escalate(&row, location, world, operation)
                if deferred {
                    for (i, c) in row.enumerated() where !c.verdict.isAllowed && Self.threatens(location, c.principal, operation) {
                        pending.append(cells.count + i)
                    }
                }
                cells += row
            }
        }
        if deferred, var s = solver {
            let order = pending.enumerated().sorted { a, b in
                let (x, y) = (Self.priority(cells[a.element]), Self.priority(cells[b.element]))
                return (x.0, x.1, a.offset) < (y.0, y.1, b.offset)
            }
            for (_, i) in order {
                cells[i] = s.decide(cells[i].location, cells[i].principal, cells[i].operation, runner: &runner)
            }
            solver = s
        }
        var model = AccessModel(
            locations: locations, principals: principals, privileges: privileges, uses: uses, cells: cells, decisions: runner.decisions)
        if let solver {
            model.solved = true
            model.solverChecks = solver.checks
            model.unknownCells = solver.unknown
        }
        return model
    }

    // MARK: - What the rules speak of

    /// Owner wildcards, privileges (with their uses) and claims, from every rule.
    private mutating func scan() {
        var seenPrivileges = Set<Privilege>()
        var seenClaims = Set<String>()
        tree.forEachNode { node in
            for kind in [RuleKind.read, .write, .validate] {
                guard case .expression(let c)? = node.rule(kind)?.body else { continue }
                visit(c.root) { e in
                    if let name = Self.ownerWildcard(e, c) { ownerWildcards.insert(name) }
                    if Self.namesUser(e, c) { namesUsers = true }
                    if let claim = Self.claim(e, c), !seenClaims.contains(claim.name), claims.count < AccessModel.maxClaims {
                        seenClaims.insert(claim.name)
                        claims.append(claim)
                    }
                }
                for lookup in RootLookup.all(in: c.root, c) where lookup.mentionsCaller || lookup.neededIsCaller {
                    let p = Privilege(lookup)
                    if p.isRegistration {
                        if !registrations.contains(p) { registrations.append(p) }
                        continue
                    }
                    if !seenPrivileges.contains(p) {
                        guard privileges.count < AccessModel.maxPrivileges else { continue }
                        seenPrivileges.insert(p)
                        privileges.append(p)
                    }
                    let ref = RuleReference(node: node, kind: kind)
                    if !(uses[p] ?? []).contains(ref) { uses[p, default: []].append(ref) }
                }
            }
        }
    }

    private func visit(_ e: Expression, _ body: (Expression) -> Void) {
        body(e)
        for s in e.subexpressions { visit(s, body) }
    }

    /// `$w` in `auth.uid == $w` (either side).
    private static func ownerWildcard(_ e: Expression, _ c: CheckedExpression) -> String? {
        guard case .binary(let op, let l, let r, _) = e.kind, op == .equal || op == .strictEqual else { return nil }
        for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(a, c) {
            if case .identifier(let name) = b.kind, case .wildcard? = c.resolution(of: b) { return name }
        }
        return nil
    }

    /// `auth.uid == 'x'`, `auth.token.email.endsWith('@x.com')`, `auth.token.email_verified == true`:
    /// a literal compared with something of the caller's.
    private static func namesUser(_ e: Expression, _ c: CheckedExpression) -> Bool {
        func ofCaller(_ x: Expression) -> Bool {
            var x = x
            while case .member(let o, _, _) = x.kind {
                if c.resolution(of: o) == .auth { return true }
                x = o
            }
            return false
        }
        switch e.kind {
        case .binary(let op, let l, let r, _) where op.isEquality:
            for (a, b) in [(l, r), (r, l)] where ofCaller(a) {
                if case .null? = ConstantFolder.fold(b) { continue }
                if ConstantFolder.fold(b) != nil { return true }
            }
            return false
        case .call(let callee, _):
            guard case .member(let receiver, _, _) = callee.kind else { return false }
            return ofCaller(receiver)
        default:
            return false
        }
    }

    /// `auth.token.NAME`, with the constant it is compared with (else `true`).
    private static func claim(_ e: Expression, _ c: CheckedExpression) -> Claim? {
        func name(_ x: Expression) -> String? {
            guard case .member(let o, let n, _) = x.kind, case .member(let a, "token", _) = o.kind, c.resolution(of: a) == .auth else { return nil }
            return n
        }
        if case .binary(let op, let l, let r, _) = e.kind, op == .equal || op == .strictEqual {
            for (a, b) in [(l, r), (r, l)] {
                guard let n = name(a) else { continue }
                switch ConstantFolder.fold(b) {
                case .string(let s)?: return Claim(name: n, value: .string(s))
                case .number(let v)?: return Claim(name: n, value: .number(v))
                case .bool(let v)?: return Claim(name: n, value: .bool(v))
                default: return nil
                }
            }
            return nil
        }
        if let n = name(e), n != "email_verified", n != "sub", n != "email", n != "name", n != "firebase", n != "phone_number" {
            return Claim(name: n, value: .bool(true))
        }
        return nil
    }

    /// The fields of a record that name its owner.
    static func ownerFields(_ node: RuleNode) -> [String] {
        var out: [String] = []
        func add(_ f: String) { if !f.isEmpty, !f.hasPrefix("$"), !f.contains("/"), !out.contains(f) { out.append(f) } }
        for kind in [RuleKind.read, .write, .validate] {
            guard case .expression(let c)? = node.rule(kind)?.body else { continue }
            func visit(_ e: Expression) {
                if case .binary(let op, let l, let r, _) = e.kind, op == .equal || op == .strictEqual {
                    for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(b, c) {
                        if case .call(let callee, _) = a.kind, case .call(.val)? = c.resolution(of: a), let recv = callee.receiver,
                            let key = ConditionFacts.snapshotKey(recv, c)
                        {
                            let parts = key.split(separator: "/").map(String.init)
                            if parts.count == 2, parts[0] == "newData" || parts[0] == "data" { add(parts[1]) }
                        }
                    }
                }
                if case .call(let callee, let arguments) = e.kind, case .call(let m)? = c.resolution(of: e), m == .hasChildren || m == .hasChild,
                    let recv = callee.receiver, ConditionFacts.snapshotKey(recv, c) == "newData"
                {
                    for a in arguments {
                        var names: [String] = []
                        if case .string(let s) = a.kind { names.append(s) }
                        if case .array(let items) = a.kind { for i in items { if case .string(let s) = i.kind { names.append(s) } } }
                        for n in names where AccessLocation.ownerFieldNames.contains(n) { add(n) }
                    }
                }
                for s in e.subexpressions { visit(s) }
            }
            visit(c.root)
        }
        for (key, child) in node.literalChildren {
            for kind in [RuleKind.write, .validate] {
                guard case .expression(let c)? = child.rule(kind)?.body else { continue }
                var compared = false
                func visit(_ e: Expression) {
                    if case .binary(let op, let l, let r, _) = e.kind, op == .equal || op == .strictEqual {
                        for (a, b) in [(l, r), (r, l)] where WitnessPlanner.isAuthUID(b, c) {
                            if case .call(let callee, _) = a.kind, case .call(.val)? = c.resolution(of: a), let recv = callee.receiver,
                                let k = ConditionFacts.snapshotKey(recv, c), k == "newData" || k == "data"
                            {
                                compared = true
                            }
                        }
                    }
                    for s in e.subexpressions { visit(s) }
                }
                visit(c.root)
                if compared { add(key) }
            }
        }
        return out
    }

    /// Records, collections and other locations with rules, in file order, within the bound.
    private func findLocations() -> [AccessLocation] {
        var out: [AccessLocation] = []
        func walk(_ node: RuleNode, isRecord: Bool) {
            guard out.count < AccessModel.maxLocations else { return }
            let kind: AccessLocation.Kind = isRecord ? .record : node.wildcard != nil ? .collection : .other
            let hasRules = node.read != nil || node.write != nil || node.validate != nil
            if isRecord || node.wildcard != nil || hasRules {
                out.append(AccessLocation(node: node, kind: kind, ownerWildcards: ownerWildcards, ownerFields: isRecord ? Self.ownerFields(node) : []))
            }
            for (_, child) in node.literalChildren { walk(child, isRecord: false) }
            if let (_, child) = node.wildcard { walk(child, isRecord: true) }
        }
        walk(tree, isRecord: false)
        return out
    }

    // MARK: - Deciding cells

    /// The data a principal acts in: the world, and for a holder the privilege granted to it.
    private func data(_ world: AccessWorld, _ principal: AccessPrincipal) -> WitnessValue {
        guard case .holder(let p) = principal else { return world.data }
        let g = p.grant(uid: AccessPrincipal.holderUID, keys: world.keys)
        return world.data.setting(g.value, at: g.path)
    }

    /// The candidate witnesses of one cell, most likely first.
    private func candidates(_ location: AccessLocation, _ world: AccessWorld, _ principal: AccessPrincipal, _ operation: AccessOperation) -> [LintWitness] {
        let who = principal.identity
        let start = data(world, principal)
        let uid = principal.uid
        switch operation {
        case .read:
            return [LintWitness(identity: who, data: start, steps: [.init(.read, world.path, note: "read")])]
        case .create:
            var keys = world.keys
            if principal != .owner {
                for (name, _) in keys { keys[name] = location.ownerWildcards.contains(name) ? (uid ?? "k2") : "k2" }
                if let last = location.node.path.last, !location.ownerWildcards.contains(last) { keys[last] = "k2" }
            }
            let path = WitnessPlanner.concrete(location.node.path, keys: keys, fallback: "k2")
            var before = start
            if path == world.path { before = start.removing(at: WitnessPlanner.segments(path)) }
            let value = AccessWorld.value(location, uid: uid)
            return [LintWitness(identity: who, data: before, steps: [.init(.set, path, value: value, note: "create a record")])]
        case .update:
            var out = [LintWitness(identity: who, data: start, steps: [.init(.set, world.path, value: AccessWorld.value(location, uid: uid), note: "replace the record")])]
            if uid != AccessPrincipal.ownerUID {
                out.append(LintWitness(identity: who, data: start, steps: [.init(.set, world.path, value: AccessWorld.value(location, uid: AccessPrincipal.ownerUID), note: "change the record")]))
            }
            return out
        case .delete:
            return [LintWitness(identity: who, data: start, steps: [.init(.delete, world.path, note: "delete the record")])]
        case .write:
            let delete = LintWitness(identity: who, data: start, steps: [.init(.delete, world.path, note: "delete everything here")])
            var out = location.kind == .collection ? [delete] : []
            if location.kind == .collection, let (name, child) = location.node.wildcard {
                let childLocation = AccessLocation(node: child, kind: .record, ownerWildcards: location.ownerWildcards, ownerFields: Self.ownerFields(child))
                let key = location.ownerWildcards.contains(name) ? (uid ?? "k2") : "k2"
                out.append(LintWitness(identity: who, data: start, steps: [.init(.set, world.path, value: .object([key: AccessWorld.value(childLocation, uid: uid)]), note: "replace everything here")]))
            } else {
                out.append(LintWitness(identity: who, data: start, steps: [.init(.set, world.path, value: WitnessPlanner.sample(location.node, uid: uid ?? AccessPrincipal.ownerUID), note: "write here")]))
                out.append(delete)
            }
            return out
        }
    }

    private mutating func decide(_ location: AccessLocation, _ world: AccessWorld, _ principal: AccessPrincipal, _ operation: AccessOperation) -> AccessCell {
        if case .named = principal, solver != nil { return solver!.decide(location, principal, operation, runner: &runner) }
        let candidates = candidates(location, world, principal, operation)
        for candidate in candidates {
            let (ran, by) = runner.run(candidate)
            if ran.confirmed {
                return AccessCell(location: location, principal: principal, operation: operation, verdict: .allowed(ran), decidedBy: by)
            }
        }
        // A signed-in principal who has not signed up: sign up first (every registration the
        // rules check, with writes they allow), then act.
        if let uid = principal.uid, principal != .owner, !registrations.isEmpty {
            let signUp = registrations.compactMap { registrationStep($0, uid: uid) }
            for candidate in candidates where !signUp.isEmpty {
                var w = candidate
                w.steps = signUp + w.steps
                let (ran, by) = runner.run(w)
                if ran.confirmed {
                    return AccessCell(location: location, principal: principal, operation: operation, verdict: .allowed(ran), decidedBy: by)
                }
            }
        }
        if solver != nil, budget?.threatsOnly != true {
            return solver!.decide(location, principal, operation, runner: &runner)
        }
        return AccessCell(location: location, principal: principal, operation: operation, verdict: .never, decidedBy: nil)
    }

    /// The cells the security lints read (see ``AccessModel/SolverBudget/threatsOnly``): what
    /// anyone signed out or a signed-in stranger may read of a large location or of per-user
    /// records, write of a large location, and replace or delete of a record.
    private static func threatens(_ location: AccessLocation, _ principal: AccessPrincipal, _ operation: AccessOperation) -> Bool {
        guard principal == .anonymous || principal == .stranger else { return false }
        switch operation {
        case .read: return location.isKeyedByOwner || (principal == .anonymous && location.isLarge)
        case .write: return true
        case .update, .delete: return location.kind == .record
        case .create: return false
        }
    }

    /// The order in which the lints' cells are asked of the solver: what anyone signed out may
    /// do to a large location, then to a record, then what a stranger may write, then the rest;
    /// large locations before small ones.
    private static func priority(_ c: AccessCell) -> (Int, Int) {
        let rank: Int
        switch (c.principal == .anonymous, c.location.isLarge, c.operation) {
        case (true, true, _): rank = 0
        case (true, false, .update), (true, false, .delete): rank = 1
        case (false, _, .write): rank = 2
        case (false, _, .update), (false, _, .delete): rank = 3
        default: rank = 4
        }
        return (rank, c.location.node.path.count)
    }

    /// The write by which `uid` signs up in a registration list: his own record there, a value its
    /// rules probably accept.
    private func registrationStep(_ p: Privilege, uid: String) -> LintWitness.Step? {
        let g = p.grant(uid: uid, keys: [:])
        guard let node = node(at: g.path) else { return nil }
        let location = AccessLocation(node: node, kind: .record, ownerWildcards: ownerWildcards, ownerFields: Self.ownerFields(node))
        var value = AccessWorld.value(location, uid: uid)
        if case .object(let m) = value, m.isEmpty { value = .bool(true) }
        return .init(.set, "/" + g.path.joined(separator: "/"), value: value, note: "sign up: \(p.description)")
    }

    /// For each privilege whose holder may do what the stranger may not, tries the stranger
    /// giving it to himself first: the grant steps are writes of the privilege's location (the
    /// value alone, or his whole record with it).
    private mutating func escalate(_ row: inout [AccessCell], _ location: AccessLocation, _ world: AccessWorld, _ operation: AccessOperation) {
        guard let s = row.firstIndex(where: { $0.principal == .stranger }), !row[s].verdict.isAllowed else { return }
        for cell in row {
            guard case .holder(let p) = cell.principal, let done = cell.verdict.witness, let act = done.steps.last else { continue }
            let me = AccessPrincipal.strangerUID
            var act2 = act
            act2.allowed = nil
            // The same operation by the stranger: on the same path (a write's owner fields name him).
            if act.operation == .set, let v = act.value, case .object = v {
                act2.value = substitute(v, AccessPrincipal.holderUID, me)
            }
            var before = act2
            before.expectAllowed = false
            before.note = "denied before"
            var after = act2
            after.expectAllowed = true
            after.note = "allowed once the privilege is held"
            for grant in grantSteps(p, world: world) {
                let witness = LintWitness(identity: .stranger(uid: me), data: world.data, steps: [before, grant, after])
                let (ran, by) = runner.run(witness)
                if ran.confirmed {
                    row[s].verdict = .escalated(ran, p)
                    row[s].decidedBy = by
                    return
                }
            }
        }
    }

    /// Writes by which the stranger may give himself `p`: the value at its location, or his own
    /// record there with the value set.
    func grantSteps(_ p: Privilege, world: AccessWorld) -> [LintWitness.Step] {
        let me = AccessPrincipal.strangerUID
        let g = p.grant(uid: me, keys: world.keys)
        let note = "give yourself \(p.description)"
        var out: [LintWitness.Step] = [.init(.set, "/" + g.path.joined(separator: "/"), value: g.value, note: note)]
        // The record that holds the privilege: the node where the caller's uid (or, for a link,
        // the parent of the field) sits.
        let recordDepth = p.segments.firstIndex(of: .caller).map { $0 + 1 } ?? (g.path.count - 1)
        if recordDepth >= 1, recordDepth < g.path.count, let node = node(at: Array(g.path.prefix(recordDepth))) {
            let rest = Array(g.path.dropFirst(recordDepth))
            let location = AccessLocation(node: node, kind: .record, ownerWildcards: ownerWildcards, ownerFields: Self.ownerFields(node))
            let record = AccessWorld.value(location, uid: me).setting(g.value, at: rest)
            let path = "/" + g.path.prefix(recordDepth).joined(separator: "/")
            out.append(.init(.set, path, value: record, note: note))
            var members: [String: WitnessValue] = [rest.joined(separator: "/"): g.value]
            if case .object(let m) = record { for (k, v) in m where k != rest.first { members[k] = v } }
            out.append(.init(.update, path, value: .object(members), note: note))
        }
        return out
    }

    /// The rule node a concrete path falls on.
    private func node(at path: [String]) -> RuleNode? {
        var n = tree
        for k in path {
            if let c = n.literalChild(k) { n = c } else if let w = n.wildcard { n = w.node } else { return nil }
        }
        return n
    }

    private func substitute(_ v: WitnessValue, _ from: String, _ to: String) -> WitnessValue {
        switch v {
        case .string(let s) where s == from: return .string(to)
        case .object(let m): return .object(m.mapValues { substitute($0, from, to) })
        default: return v
        }
    }
}
