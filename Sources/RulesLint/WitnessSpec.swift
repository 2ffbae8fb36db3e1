import RulesCompiler

/// A witness as a `rules test` spec file (see `docs/test-spec-format.md`) that fails until the
/// rules are fixed: the steps before the last keep the verdicts the engine gave, and the last
/// step, the one that shows the hole, expects `deny`.
package enum WitnessSpec {
    /// The YAML text of one spec file for a finding with a witness; `rulesPath` is the rules file
    /// relative to where the spec is written.
    package static func render(_ finding: LintFinding, rulesPath: String) -> String? {
        guard let w = finding.witness, !w.steps.isEmpty else { return nil }
        var out = "# \(finding.code.rawValue) at \(finding.anchor): fails until the rules are fixed.\n"
        out += "# \(oneLine(finding.diagnostic.message))\n"
        out += spec(w, rulesPath: rulesPath, name: "\(finding.code.rawValue): \(finding.anchor)", lastExpectsDeny: true)
        return out
    }

    /// A witness as a spec (from `rules:` on): one test named `name` whose steps are the
    /// witness's, each expecting the verdict the engine gave; with `lastExpectsDeny`, the last
    /// step expects `deny` whatever it got.
    package static func spec(_ w: LintWitness, rulesPath: String, name: String, lastExpectsDeny: Bool) -> String {
        var out = "rules: \(WitnessValue.string(rulesPath).json)\n"
        out += "now: \(Int(WitnessSearch.now))\n"
        if let data = w.data { out += "data: \(data.json)\n" }
        let token = w.identity.claims.isEmpty ? "" : ", token: \(WitnessValue.object(w.identity.claims).json)"
        out += "auth:\n  caller: " + (w.identity.uid.map { "{uid: \(WitnessValue.string($0).json)\(token)}" } ?? "null") + "\n"
        out += "tests:\n  - name: \(WitnessValue.string(name).json)\n    steps:\n"
        for (i, s) in w.steps.enumerated() {
            out += "      - as: caller\n"
            switch s.operation {
            case .read:
                out += "        read: \(WitnessValue.string(s.path).json)\n"
                if !s.query.isEmpty { out += "        query: \(WitnessValue.object(s.query).json)\n" }
            case .delete: out += "        delete: \(WitnessValue.string(s.path).json)\n"
            case .set: out += "        set: \(WitnessValue.string(s.path).json)\n        value: \(s.value?.json ?? "null")\n"
            case .update: out += "        update: \(WitnessValue.string(s.path).json)\n        values: \(s.value?.json ?? "{}")\n"
            }
            let expectAllow = lastExpectsDeny && i == w.steps.count - 1 ? false : (s.allowed ?? s.expectAllowed)
            out += "        expect: \(expectAllow ? "allow" : "deny")\n"
        }
        return out
    }

    private static func oneLine(_ s: String) -> String {
        s.split(separator: "\n").joined(separator: " ")
    }
}
