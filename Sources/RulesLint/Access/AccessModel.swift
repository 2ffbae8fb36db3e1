import DatabaseRules
import RulesCompiler

/// Who may do what, where: for every location of a rules file, each principal and each
/// operation, the answer of a bounded search run through the engine, with a witness for every
/// "allowed" (see `docs/lints.md`, "The access model").
package struct AccessModel: Sendable {
    /// The locations, in the order of the file.
    package var locations: [AccessLocation]
    /// The principals, in table order: anonymous, stranger, owner, then each privilege and claim.
    package var principals: [AccessPrincipal]
    /// The privileges data grants (roles, flags, memberships, links).
    package var privileges: [Privilege]
    /// Where each privilege is trusted: the rules that look it up.
    package var uses: [Privilege: [RuleReference]]
    /// The cells, location by location, principal by principal, operation by operation.
    package var cells: [AccessCell]
    /// How many operations the engine decided to build the model.
    package var decisions: Int
    /// Whether the cells the search did not allow were asked of the solver (`never` is then a
    /// proof within ``RulesSolver/SolverBounds``, and `unknown` says what was not shown).
    package var solved = false
    /// Satisfiability checks made, and cells left `unknown`.
    package var solverChecks = 0
    package var unknownCells = 0

    /// The search's bounds: at most this many locations, privileges and claims are modelled.
    package static let maxLocations = 400
    package static let maxPrivileges = 16
    package static let maxClaims = 8

    /// The cell of a location, principal and operation.
    package func cell(_ location: String, _ principal: AccessPrincipal, _ operation: AccessOperation) -> AccessCell? {
        cells.first { $0.location.path == location && $0.principal == principal && $0.operation == operation }
    }

    /// Builds the model of `rules` (whose checked tree is `tree`); with `solver`, every cell the
    /// search does not allow is asked of the solver within its budget.
    package static func build(rules: Ruleset, tree: RuleNode, solver: SolverBudget? = nil) -> AccessModel {
        var builder = AccessModelBuilder(rules: rules, tree: tree, solver: solver)
        return builder.build()
    }

    /// What the solver may spend on one file.
    package struct SolverBudget: Sendable, Hashable {
        /// The time one satisfiability check may take.
        package var milliseconds: UInt32
        /// The time all the file's questions may take; cells past it are `unknown`.
        package var seconds: Double
        /// Whether only the cells that the security lints read are asked of the solver (what
        /// anyone signed out or a signed-in stranger may read of a large location or of per-user
        /// records, write of a large location, replace or delete of a record): `rules check`.
        /// The other cells keep the search's answer.
        package var threatsOnly: Bool

        package init(milliseconds: UInt32 = 2000, seconds: Double = 20, threatsOnly: Bool = false) {
            self.milliseconds = milliseconds
            self.seconds = seconds
            self.threatsOnly = threatsOnly
        }
    }
}
