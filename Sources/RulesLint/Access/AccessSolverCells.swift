import DatabaseRules
import RulesCompiler
import RulesSolver

/// Decides the access model's cells that the search did not allow by asking the solver: each
/// cell becomes an ``AccessQuestion`` (the principal, the operation, the owner's record where the
/// cell is about it), each model a ``LintWitness`` that the engine must allow before the cell is
/// `allowed`; no model within the bounds is `never`; the rest, and every cell past the file's
/// time budget, is `unknown`.
struct AccessSolverCells {
    private let solver: AccessSolver
    private let tree: RuleNode
    private let ownerWildcards: Set<String>
    private let deadline: ContinuousClock.Instant
    private(set) var unknown = 0
    var checks: Int { solver.checks }

    init(budget: AccessModel.SolverBudget, tree: RuleNode, ownerWildcards: Set<String>) {
        solver = AccessSolver(milliseconds: budget.milliseconds)
        self.tree = tree
        self.ownerWildcards = ownerWildcards
        // The file's budget is solver work (the same answers on any machine and under any load),
        // with four times its time as a ceiling on a slow or busy machine.
        deadline = ContinuousClock.now + .milliseconds(Int64(budget.seconds * 4000))
        solver.deadline = deadline
        solver.workLimit = UInt64(budget.seconds * 1000) * SMT.workPerMillisecond
    }

    mutating func decide(
        _ location: AccessLocation, _ principal: AccessPrincipal, _ operation: AccessOperation, runner: inout AccessRunner
    ) -> AccessCell {
        var cell = AccessCell(location: location, principal: principal, operation: operation, verdict: .never, decidedBy: nil)
        guard !solver.exhausted else {
            unknown += 1
            cell.verdict = .unknown(AccessSolver.outOfBudget)
            return cell
        }
        var reasons: [String] = []
        for question in questions(location, principal, operation) {
            var decidedBy: RuleReference?
            var ran: LintWitness?
            let answer = solver.ask(question) { found in
                let w = witness(found, question, principal, operation)
                let (r, by) = runner.run(w)
                guard r.confirmed else { return false }
                ran = r
                decidedBy = by
                return true
            }
            switch answer {
            case .witness:
                if let ran {
                    cell.verdict = .allowed(ran)
                    cell.decidedBy = decidedBy
                    return cell
                }
            case .never:
                continue
            case .unknown(let reason):
                reasons.append(reason)
            }
        }
        if let reason = reasons.first {
            unknown += 1
            cell.verdict = .unknown(reason)
        }
        return cell
    }

    /// The questions of one cell (a `write` is a deletion or a replacement).
    private func questions(_ location: AccessLocation, _ principal: AccessPrincipal, _ operation: AccessOperation) -> [AccessQuestion] {
        let path = tree.nodes(to: location.node)
        var q = AccessQuestion(nodes: path, operation: .read, principal: Self.principal(principal), now: WitnessSearch.now)
        switch principal {
        case .stranger: q.unnamed = AccessPrincipal.strangerUID
        case .holder(let p):
            let g = p.segments.map { s -> AccessQuestion.Segment in
                switch s {
                case .key(let k): .key(k)
                case .caller: .caller
                case .wildcard(let n): .wildcard(n)
                }
            }
            q.facts.append((g, p.neededIsCaller ? .string(AccessPrincipal.holderUID) : Self.value(p.needed)))
        default: break
        }
        // The owner's record: her uid in the owner wildcards and fields.
        let owners = location.node.path.filter { ownerWildcards.contains($0) }
        func ownersRecord(_ q: inout AccessQuestion) {
            for w in owners { q.keys[w] = AccessPrincipal.ownerUID }
            if location.kind == .record {
                for f in location.ownerFields { q.facts.append(((location.node.path + [f]).map(Self.segment), .string(AccessPrincipal.ownerUID))) }
            }
        }
        switch operation {
        case .read:
            q.allowQuery = true
            ownersRecord(&q)
            if location.kind == .record { q.existsBefore = true }
            return [q]
        case .create:
            q.operation = .set
            q.existsBefore = false
            return [q]
        case .update:
            q.operation = .set
            q.existsBefore = true
            ownersRecord(&q)
            return [q]
        case .delete:
            q.operation = .delete
            q.existsBefore = true
            ownersRecord(&q)
            return [q]
        case .write:
            q.existsBefore = true
            ownersRecord(&q)
            var d = q
            d.operation = .delete
            var s = q
            s.operation = .set
            return [d, s]
        }
    }

    private static func segment(_ key: String) -> AccessQuestion.Segment {
        key.hasPrefix("$") ? .wildcard(key) : .key(key)
    }

    private static func principal(_ p: AccessPrincipal) -> SolverPrincipal {
        switch p {
        case .anonymous: .signedOut
        case .named: .anyUser(excluded: [AccessPrincipal.ownerUID, AccessPrincipal.strangerUID, AccessPrincipal.holderUID])
        case .claimant(let c): .user(uid: AccessPrincipal.holderUID, provider: "custom", token: [c.name: value(c.value)])
        default: .user(uid: p.uid ?? "", provider: "custom", token: [:])
        }
    }

    private static func value(_ v: WitnessValue) -> SolverValue {
        switch v {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .object: .object
        }
    }

    private static func witnessValue(_ t: SolverTree) -> WitnessValue? {
        switch t {
        case .object(let m): return .object(m.compactMapValues(witnessValue))
        case .leaf(let v):
            switch v {
            case .string(let s): return .string(s)
            case .number(let n): return .number(n)
            case .bool(let b): return .bool(b)
            case .null, .object: return nil
            }
        }
    }

    /// The witness of a model: who (a named user as the solver picked them), the data before, and
    /// the one operation.
    private func witness(_ found: SolverWitness, _ q: AccessQuestion, _ principal: AccessPrincipal, _ operation: AccessOperation) -> LintWitness {
        var identity = principal.identity
        if case .named = principal {
            var claims: [String: WitnessValue] = [:]
            for (k, v) in found.claims { claims[k] = Self.witnessValue(.leaf(v)) }
            identity = .named(uid: found.uid ?? AccessPrincipal.namedUID, claims: claims)
        }
        let path = "/" + found.path.joined(separator: "/")
        var step: LintWitness.Step
        switch q.operation {
        case .read:
            step = .init(.read, path, note: found.query.isEmpty ? "read" : "query")
            for (k, v) in found.query { step.query[k] = Self.witnessValue(.leaf(v)) }
        case .delete:
            step = .init(.delete, path, note: operation == .write ? "delete everything here" : "delete the record")
        case .set:
            let note = operation == .create ? "create a record" : operation == .update ? "replace the record" : "write here"
            step = .init(.set, path, value: found.value.flatMap(Self.witnessValue) ?? .bool(true), note: note)
        }
        return LintWitness(identity: identity, data: found.data.flatMap(Self.witnessValue), steps: [step])
    }
}
