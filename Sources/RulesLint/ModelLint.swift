/// A security lint decided on the access model: a threat class whose every finding carries a
/// witness the engine allowed. When a model is built (`rules check`, `Ruleset.lintFindings()`),
/// its findings replace those of its static check, if it has one (``StaticLint``).
package protocol ModelLint: Lint {
    /// Its findings on a model, each with a witness.
    static func check(_ context: inout ThreatContext) -> [LintFinding]
}
