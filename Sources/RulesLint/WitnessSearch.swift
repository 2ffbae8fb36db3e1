import DatabaseRules
import RulesCompiler
import RulesRuntime
import RulesSyntax

/// Confirms security findings with the engine: each candidate counterexample the linter proposed
/// (``LintFinding/witnessCandidates``) is run through ``Ruleset/decide(_:on:auth:now:explain:)``
/// on a ``Database`` holding its starting data, step by step (an allowed write is committed), and
/// the first whose every step gets the verdict it needs becomes the finding's witness, with the
/// engine's verdicts.
///
/// What a lint's findings need is its ``Lint/witnessPolicy``: without a witness, a finding of a
/// lint that requires one is dropped; any other searched finding is kept and marked unconfirmed
/// (``LintFinding/witnessStatus``).
package enum WitnessSearch {
    /// The clock every witness runs at (2026-01-01T00:00:00Z, in ms), so that runs repeat.
    package static let now: Double = 1_767_225_600_000

    /// The findings with witnesses searched against `rules` (whose checked tree is `tree`).
    /// Findings of one lint whose witnesses the same rule allows are one cause: they are reported
    /// once, at the first, with the others as related locations.
    package static func confirm(_ findings: [LintFinding], rules: Ruleset, tree: RuleNode) -> [LintFinding] {
        var runner = AccessRunner(rules: rules, tree: tree)
        var out: [LintFinding] = []
        var causes: [CauseKey: Int] = [:]
        for finding in findings {
            let policy = finding.code.lint.witnessPolicy
            guard policy != .notSearched else { out.append(finding); continue }
            var f = finding
            var decidedBy: RuleReference?
            if f.witness == nil {
                f.witnessSearched = true
                for candidate in f.witnessCandidates {
                    let (ran, by) = runner.run(candidate)
                    if ran.confirmed {
                        f.witness = ran
                        decidedBy = by
                        break
                    }
                }
            }
            if f.witness == nil, policy == .required { continue }
            if let by = decidedBy, !f.code.isModelled {
                let key = CauseKey(code: f.code, rule: by)
                if let i = causes[key] {
                    out[i].related.append(LintRelated(range: f.diagnostic.range, message: "also \(f.anchor), by \(by.description)"))
                    continue
                }
                causes[key] = out.count
            }
            out.append(f)
        }
        return out
    }

    private struct CauseKey: Hashable {
        var code: LintCode
        var rule: RuleReference
    }

    /// Runs a witness: each step's ``LintWitness/Step/allowed`` is the engine's verdict. Running
    /// stops at the first step whose verdict is not the one it needs (later steps stay unrun).
    package static func run(_ witness: LintWitness, rules: Ruleset) -> LintWitness {
        var out = witness
        var database = Database()
        if let data = witness.data {
            guard let d = try? Database(json: data.json) else { return out }
            database = d
        }
        let auth = auth(witness.identity)
        for i in out.steps.indices {
            guard let operation = operation(out.steps[i]) else { return out }
            let decision = database.apply(operation, rules: rules, auth: auth, now: now)
            out.steps[i].allowed = decision.allowed
            if decision.allowed != out.steps[i].expectAllowed { return out }
        }
        return out
    }

    /// The `auth` of an identity: null when signed out, else a user with the identity's claims.
    package static func auth(_ identity: LintWitness.Identity) -> AuthValue {
        guard let uid = identity.uid else { return .null }
        var claims: [String: AuthValue] = [:]
        for (k, v) in identity.claims {
            switch v {
            case .string(let s): claims[k] = .string(s)
            case .number(let n): claims[k] = .number(n)
            case .bool(let b): claims[k] = .bool(b)
            case .object: claims[k] = .bool(true)
            }
        }
        return AuthValue.user(uid: uid, claims: claims)
    }

    /// The query parameters of a read's fields (`orderByChild`, `equalTo`, ...).
    static func query(_ fields: [String: WitnessValue]) -> QueryParameters {
        guard !fields.isEmpty else { return .none }
        func primitive(_ v: WitnessValue?) -> Primitive? {
            switch v {
            case .string(let s)?: .string(s)
            case .number(let n)?: .number(n)
            case .bool(let b)?: .bool(b)
            default: nil
            }
        }
        func flag(_ name: String) -> Bool { fields[name] == .bool(true) }
        func number(_ name: String) -> Double? { if case .number(let n)? = fields[name] { n } else { nil } }
        var child: String?
        if case .string(let s)? = fields["orderByChild"] { child = s }
        return QueryParameters(
            orderByKey: flag("orderByKey"), orderByPriority: flag("orderByPriority"), orderByValue: flag("orderByValue"), orderByChild: child,
            startAt: primitive(fields["startAt"]), endAt: primitive(fields["endAt"]), equalTo: primitive(fields["equalTo"]),
            limitToFirst: number("limitToFirst"), limitToLast: number("limitToLast"))
    }

    /// The engine's operation for a step (nil when its value cannot be read).
    static func operation(_ step: LintWitness.Step) -> DatabaseOperation? {
        switch step.operation {
        case .read:
            return .read(path: step.path, query: query(step.query))
        case .delete:
            return .delete(path: step.path)
        case .set:
            guard let v = step.value, let input = try? DataInputReader.read(json: v.json) else { return nil }
            return .set(path: step.path, value: input)
        case .update:
            guard case .object(let members)? = step.value else { return nil }
            var values: [(String, DataInput)] = []
            for key in members.keys.sorted() {
                guard let input = try? DataInputReader.read(json: members[key]!.json) else { return nil }
                values.append((key, input))
            }
            return .update(path: step.path, values: values)
        }
    }
}
