import RulesCompiler
import RulesSyntax

/// A small JSON value for witnesses: the data a counterexample starts from and the values it
/// writes. Objects keep their keys sorted, so a witness renders the same way every time.
package indirect enum WitnessValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: WitnessValue])

    /// The value as compact JSON, keys sorted.
    package var json: String {
        switch self {
        case .string(let s): return JSONText.quote(s)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONText.quote($0) + ":" + members[$0]!.json }.joined(separator: ",") + "}"
        }
    }

    /// The value as compact JSON with every string longer than 40 characters cut, for reports
    /// (`"xxxxxxxx…" (2800001 characters)`); ``json`` is the value itself.
    package var shortJSON: String {
        switch self {
        case .string(let s) where s.count > 40: return JSONText.quote(String(s.prefix(8)) + "…") + " (\(s.count) characters)"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONText.quote($0) + ":" + members[$0]!.shortJSON }.joined(separator: ",") + "}"
        default: return json
        }
    }

    /// `value` placed at `segments` below an empty root: `{"a": {"b": value}}`.
    package static func nested(_ value: WitnessValue, at segments: [String]) -> WitnessValue {
        segments.reversed().reduce(value) { .object([$1: $0]) }
    }

    /// The two values merged: objects member by member, otherwise `other` wins.
    package func merged(with other: WitnessValue) -> WitnessValue {
        guard case .object(let a) = self, case .object(let b) = other else { return other }
        var out = a
        for (k, v) in b { out[k] = a[k].map { $0.merged(with: v) } ?? v }
        return .object(out)
    }

    /// The value without what is at the relative path `segments` (emptied objects stay).
    package func removing(at segments: [String]) -> WitnessValue {
        guard let first = segments.first, case .object(var members) = self, let next = members[first] else { return self }
        if segments.count == 1 { members[first] = nil } else { members[first] = next.removing(at: Array(segments.dropFirst())) }
        return .object(members)
    }

    /// The value with `value` set at the relative path `segments` (objects are created on the way).
    package func setting(_ value: WitnessValue, at segments: [String]) -> WitnessValue {
        guard let first = segments.first else { return value }
        var members: [String: WitnessValue] = [:]
        if case .object(let m) = self { members = m }
        members[first] = (members[first] ?? .object([:])).setting(value, at: Array(segments.dropFirst()))
        return .object(members)
    }
}
