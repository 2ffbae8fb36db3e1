import RulesCompiler

/// One question for the solver: may `principal` perform `operation` at the location `nodes.last`
/// (its `$wildcard`s taking any key, or the keys given), in some database that satisfies the
/// facts?
package struct AccessQuestion: Sendable {
    package enum Operation: Sendable {
        /// A read, plain or (with `allowQuery`) a query.
        case read
        /// A set of a non-null value.
        case set
        case delete
    }

    /// A key of a path in a fact: literal, a `$wildcard` of the location, or the caller's uid.
    package enum Segment: Hashable, Sendable {
        case key(String)
        case wildcard(String)
        case caller
    }

    /// The rule nodes from the root to the location.
    package var nodes: [RuleNode]
    package var operation: Operation
    package var principal: SolverPrincipal
    /// `$wildcard`s with a given key (an owner wildcard takes the owner's uid).
    package var keys: [String: String] = [:]
    /// Whether the location holds data before (nil: either).
    package var existsBefore: Bool?
    /// Data before the operation: the value at each path (a privilege, an owner field).
    package var facts: [(path: [Segment], value: SolverValue)] = []
    /// A uid no data before names (the stranger's), neither as a key nor as a value.
    package var unnamed: String?
    /// Whether a read may be a query.
    package var allowQuery = false
    /// `now`, in ms.
    package var now: Double
    /// The data before, exactly (nil: any data).
    package var data: SolverTree?
    /// The value a set writes, exactly (nil: any value).
    package var value: SolverTree?

    package init(nodes: [RuleNode], operation: Operation, principal: SolverPrincipal, now: Double) {
        self.nodes = nodes
        self.operation = operation
        self.principal = principal
        self.now = now
    }
}

/// The bounds a `never` holds within, as the report states them.
package enum SolverBounds {
    /// Levels below the location whose `.validate` rules a written value is checked against.
    package static let depthBelow = 4
    /// How a written value's wildcard children are modelled.
    package static let text =
        "any data before, any value written with one child per $wildcard to \(depthBelow) levels below the location, numbers as reals, now fixed"
}
