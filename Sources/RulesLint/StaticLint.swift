/// A lint decided on the checked rule tree, without running the rules: its findings carry
/// witness candidates that ``WitnessSearch`` confirms with the engine.
package protocol StaticLint: Lint {
    /// Its findings on a file (suppressions and the configuration are applied by ``Linter``).
    static func check(_ context: inout LintContext) -> [LintFinding]
}
