import RulesCompiler
import RulesSyntax

/// Witnesses as JSON in the shape of `rules test` specs: `{"auth", "data", "now", "steps"}`, each
/// step `{"read": P}`, `{"set": P, "value": V}`, `{"update": P, "values": V}` or `{"delete": P}`
/// with the verdict the engine gave as `expect`.
package enum AccessJSON {
    package static func witness(_ w: LintWitness) -> JSONText {
        .object([
            ("auth", auth(w.identity)), ("data", w.data.map(value) ?? .null), ("now", .int(Int(WitnessSearch.now))),
            ("steps", .array(w.steps.map(step))),
        ])
    }

    package static func auth(_ identity: LintWitness.Identity) -> JSONText {
        guard let uid = identity.uid else { return .null }
        var m: [(String, JSONText)] = [("uid", .string(uid))]
        if !identity.claims.isEmpty { m.append(("token", value(.object(identity.claims)))) }
        return .object(m)
    }

    package static func step(_ s: LintWitness.Step) -> JSONText {
        var m: [(String, JSONText)]
        switch s.operation {
        case .read: m = [("read", .string(s.path))]
        case .delete: m = [("delete", .string(s.path))]
        case .set: m = [("set", .string(s.path)), ("value", s.value.map(value) ?? .null)]
        case .update: m = [("update", .string(s.path)), ("values", s.value.map(value) ?? .object([]))]
        }
        m.append(("expect", .string((s.allowed ?? s.expectAllowed) ? "allow" : "deny")))
        return .object(m)
    }

    package static func value(_ v: WitnessValue) -> JSONText {
        switch v {
        case .string(let s): .string(s)
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? .int(Int(n)) : .double(n)
        case .bool(let b): .bool(b)
        case .object(let m): .object(m.keys.sorted().map { ($0, value(m[$0]!)) })
        }
    }
}
