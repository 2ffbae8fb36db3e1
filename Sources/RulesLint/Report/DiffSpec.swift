import RulesCompiler

/// A change of `rules diff` as a `rules test` spec that passes on the new version and fails on
/// the old: every step expects the verdict the engine gave on the new version.
package enum DiffSpec {
    /// The YAML text of the spec; `rulesPath` is the new rules file relative to where it is written.
    package static func render(_ c: AccessDiff.Change, rulesPath: String) -> String {
        let w = c.witness
        let title = "\(c.kind.rawValue): \(c.principal.name) \(c.operation.rawValue) \(c.path)"
        var out = "# \(title): passes on the new version, fails on the old.\n"
        out += "rules: \(WitnessValue.string(rulesPath).json)\n"
        out += "now: \(Int(WitnessSearch.now))\n"
        if let data = w.data { out += "data: \(data.json)\n" }
        let token = w.identity.claims.isEmpty ? "" : ", token: \(WitnessValue.object(w.identity.claims).json)"
        out += "auth:\n  caller: " + (w.identity.uid.map { "{uid: \(WitnessValue.string($0).json)\(token)}" } ?? "null") + "\n"
        out += "tests:\n  - name: \(WitnessValue.string(title).json)\n    steps:\n"
        for s in w.steps {
            out += "      - as: caller\n"
            switch s.operation {
            case .read: out += "        read: \(WitnessValue.string(s.path).json)\n"
            case .delete: out += "        delete: \(WitnessValue.string(s.path).json)\n"
            case .set: out += "        set: \(WitnessValue.string(s.path).json)\n        value: \(s.value?.json ?? "null")\n"
            case .update: out += "        update: \(WitnessValue.string(s.path).json)\n        values: \(s.value?.json ?? "{}")\n"
            }
            out += "        expect: \((s.allowed ?? s.expectAllowed) ? "allow" : "deny")\n"
        }
        return out
    }
}
