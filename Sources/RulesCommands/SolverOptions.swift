import ArgumentParser
import RulesLint

/// The solver's options, shared by `rules access` and `rules diff`.
package struct SolverOptions: ParsableArguments {
    @Flag(name: .customLong("no-solver"), help: "Decide cells with the bounded search alone (\"no\" then means only that nothing was found).")
    package var noSolver = false

    @Option(name: .customLong("solver-timeout"), help: "Milliseconds one satisfiability check may take.")
    package var milliseconds: UInt32 = 2000

    @Option(name: .customLong("solver-budget"), help: "Seconds the solver may spend on one file; cells past it are unknown.")
    package var seconds: Double = 20

    package init() {}

    package func validate() throws {
        guard milliseconds >= 1 else { throw ValidationError("--solver-timeout must be at least 1 ms") }
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--solver-budget must be a positive number of seconds") }
    }

    /// The budget, nil without the solver.
    package var budget: AccessModel.SolverBudget? {
        noSolver ? nil : AccessModel.SolverBudget(milliseconds: milliseconds, seconds: seconds)
    }
}
