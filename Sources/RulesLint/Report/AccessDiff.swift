import DatabaseRules
import RulesCompiler

/// What changed in who can do what between two versions of a rules file: every cell of either
/// version's model whose witness the engine allows on that version and denies on the other.
/// Refactors (reformatting, reordered keys, a renamed `$wildcard`, a condition moved between
/// equivalent places) change no verdict, so they report nothing.
package struct AccessDiff {
    /// One changed cell.
    package struct Change {
        package enum Kind: String { case newlyAllowed = "newly-allowed", newlyDenied = "newly-denied" }
        package var kind: Kind
        /// The path pattern, in the new version's `$wildcard` names when the location exists there.
        package var path: String
        package var principal: AccessPrincipal
        package var operation: AccessOperation
        /// The witness as run on the new version (its last step's verdict is `new`).
        package var witness: LintWitness
        /// The rule that allowed it on the side that allows it.
        package var rule: RuleReference?
        /// The old and new verdicts of the last step.
        package var old: Bool
        package var new: Bool

        /// `set`, `update`, `delete` or `read`: the last step's operation.
        package var stepOperation: String { witness.steps.last?.operation.rawValue ?? "read" }
    }

    package var changes: [Change]
    package var oldModel: AccessModel
    package var newModel: AccessModel

    package var unchanged: Bool { changes.isEmpty }
    package var loosens: Bool { changes.contains { $0.kind == .newlyAllowed } }

    /// Compares two versions.
    package static func compare(
        old: (rules: Ruleset, tree: RuleNode), new: (rules: Ruleset, tree: RuleNode), solver: AccessModel.SolverBudget? = nil
    ) -> AccessDiff {
        let oldModel = AccessModel.build(rules: old.rules, tree: old.tree, solver: solver)
        let newModel = AccessModel.build(rules: new.rules, tree: new.tree, solver: solver)
        var changes: [Change] = []
        var seen = Set<String>()
        var runners = [AccessRunner(rules: new.rules, tree: new.tree), AccessRunner(rules: old.rules, tree: old.tree)]
        // Newly allowed: the new version's witnesses, denied on the old; newly denied the reverse.
        for (model, this, other, kind) in [(newModel, 0, 1, Change.Kind.newlyAllowed), (oldModel, 1, 0, Change.Kind.newlyDenied)] {
            for cell in model.cells {
                guard let w = cell.verdict.witness else { continue }
                let key = "\(kind.rawValue)|\(AccessPaths.normalized(cell.location.path))|\(normalizedName(cell.principal))|\(cell.operation.rawValue)"
                guard !seen.contains(key) else { continue }
                let here = runners[this].run(w).witness
                let there = runners[other].run(w).witness
                guard here.confirmed, !there.confirmed else { continue }
                // The first step that differs must be one allowed here and denied there (a step
                // that was denied before and is allowed there means the operation was already
                // possible there).
                guard let first = there.steps.first(where: { $0.allowed != $0.expectAllowed }), first.expectAllowed else { continue }
                seen.insert(key)
                let onNew = kind == .newlyAllowed ? here : there
                let path = kind == .newlyAllowed ? cell.location.path : (newModel.locations.first {
                    AccessPaths.normalized($0.path) == AccessPaths.normalized(cell.location.path)
                }?.path ?? cell.location.path)
                changes.append(Change(
                    kind: kind, path: path, principal: cell.principal, operation: cell.operation, witness: onNew, rule: cell.decidedBy,
                    old: kind == .newlyDenied, new: kind == .newlyAllowed))
            }
        }
        return AccessDiff(changes: changes, oldModel: oldModel, newModel: newModel)
    }

    /// A principal's name with `$wildcard` names left out, to match across versions.
    static func normalizedName(_ p: AccessPrincipal) -> String {
        p.name.split(separator: "/").map { $0.hasPrefix("$") ? "$" : String($0) }.joined(separator: "/")
    }
}
