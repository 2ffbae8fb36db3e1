import ArgumentParser
import RulesLint

/// The solver's options, shared by `rules access` and `rules diff`.
package struct SolverOptions: ParsableArguments {
    @Flag(name: .customLong("no-solver"), help: "Decide cells with the bounded search alone (\"no\" then means only that nothing was found).")
    package var noSolver = false

    @Option(name: .customLong("solver-timeout"), help: ArgumentHelp("Milliseconds one satisfiability check may take (default: 2000 for access and diff, 250 for check).", valueName: "ms"))
    package var milliseconds: UInt32?

    @Option(name: .customLong("solver-budget"), help: ArgumentHelp("Seconds the solver may spend on one file; cells past it are unknown (default: 20 for access and diff, 2 for check).", valueName: "seconds"))
    package var seconds: Double?

    package init() {}

    package func validate() throws {
        if let milliseconds, milliseconds < 1 { throw ValidationError("--solver-timeout must be at least 1 ms") }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--solver-budget must be a positive number of seconds") }
    }

    /// The budget of `rules access` and `rules diff`, nil without the solver.
    package var budget: AccessModel.SolverBudget? { budget(milliseconds: 2000, seconds: 20) }

    /// The budget with these defaults for what the options leave unsaid, nil without the solver.
    package func budget(milliseconds: UInt32, seconds: Double, threatsOnly: Bool = false) -> AccessModel.SolverBudget? {
        noSolver ? nil : AccessModel.SolverBudget(milliseconds: self.milliseconds ?? milliseconds, seconds: self.seconds ?? seconds, threatsOnly: threatsOnly)
    }
}
