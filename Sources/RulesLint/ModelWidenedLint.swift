/// A static lint that the access model widens: its static check finds the rules that grant
/// something whatever the data (a `.read` true when auth is null), and the model adds, each with
/// a witness the engine allowed, the rules that grant the same thing only with some data, some
/// value or some query, which only the solver finds (`rules check` with the solver). Both kinds
/// of finding carry the lint's code; a rule both find is reported once, as the static check words it.
package protocol ModelWidenedLint: StaticLint {
    /// The findings the model adds, each with a witness.
    static func widen(_ context: inout ThreatContext) -> [LintFinding]
}
