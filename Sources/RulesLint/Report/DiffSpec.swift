import RulesCompiler

/// A change of `rules diff` as a `rules test` spec that passes on the new version and fails on
/// the old: every step expects the verdict the engine gave on the new version.
package enum DiffSpec {
    /// The YAML text of the spec; `rulesPath` is the new rules file relative to where it is written.
    package static func render(_ c: AccessDiff.Change, rulesPath: String) -> String {
        let title = "\(c.kind.rawValue): \(c.principal.name) \(c.operation.rawValue) \(c.path)"
        return "# \(title): passes on the new version, fails on the old.\n"
            + WitnessSpec.spec(c.witness, rulesPath: rulesPath, name: title, lastExpectsDeny: false)
    }
}
