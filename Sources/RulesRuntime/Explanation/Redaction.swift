import RulesCompiler
import RulesSyntax

/// What a caller may see of the values in an explanation of their own request (see
/// ``RulesEngine/decide(_:on:auth:now:explain:redactUnreadable:)``).
///
/// A location may be read when the same rules' `.read` grants a plain read of it to the same
/// `auth` on the tree before the operation. A value is withheld (*tainted*) when it was derived
/// from the content of a location the caller may not read:
/// - `data`, `root` and their `child()` and `parent()` snapshots are judged by their location;
///   `newData` too, except at or below a written path, whose content the caller wrote (unless
///   the value written there adds to what is stored: an increment);
/// - a snapshot whose path was computed from a tainted value (`root.child(data.val())`) is
///   tainted whatever its location;
/// - anything computed from a tainted operand (`data.val() + 1`, `exists()`, `hasChildren`,
///   comparisons) is tainted; `auth`, `now`, `query`, `$` variables and literals never are;
/// - after a tainted operand of `&&` or `||`, or below a `?:` with a tainted condition, nothing
///   is shown at all (whether it was evaluated would tell what the tainted operand was).
///
/// This runs only when a redacted explanation is asked for, never in a plain decision.
struct Redaction {
    /// The tree before the operation.
    let oldRoot: DataNode?
    let ruleset: CompiledRuleset
    let tables: EngineTables
    let auth: AuthValue
    let now: Double
    /// The budget of each read decision that finds out whether a path may be read.
    let budget: EvaluationBudget
    /// The new tree's root entry in the snapshot table (-1 for a read).
    var newRoot: Int32 = -1
    /// The written paths, and whether the value written there reads what is stored.
    var written: [(keys: [String], readsExisting: Bool)] = []
    /// Whether the caller may read each path asked about so far.
    private var readable: [[String]: Bool] = [:]

    init(oldRoot: DataNode?, ruleset: CompiledRuleset, tables: EngineTables, auth: AuthValue, now: Double, budget: EvaluationBudget) {
        self.oldRoot = oldRoot
        self.budget = budget
        self.ruleset = ruleset
        self.tables = tables
        self.auth = auth
        self.now = now
    }

    /// The tainted nodes of one evaluation.
    struct Analysis {
        /// Node ids whose values are withheld.
        var tainted: Set<Int32> = []
        /// Of those, snapshots whose path is withheld too (else only their content is).
        var pathTainted: Set<Int32> = []
        /// Node ids not shown at all (see ``Redaction``).
        var hidden: Set<Int32> = []
        /// The snapshot-table entry of each snapshot value.
        var snapshots: [Int32: Int32] = [:]

        /// Whether the rule read anything the caller may not read.
        var readsUnreadable: Bool { !tainted.isEmpty || !hidden.isEmpty }

        /// The recorded values with the tainted ones withheld and the hidden ones left out.
        func redacted(_ recorded: [Int32: String], snaps: SnapshotTable) -> [Int32: String] {
            var out: [Int32: String] = [:]
            for (id, value) in recorded where !hidden.contains(id) {
                if !tainted.contains(id) {
                    out[id] = value
                } else if let entry = snapshots[id], !pathTainted.contains(id) {
                    out[id] = "snapshot /" + snaps.path(of: entry).joined(separator: "/") + " = " + Explanation.unreadable
                } else {
                    out[id] = Explanation.unreadable
                }
            }
            return out
        }
    }

    /// The taint of every node of a rule's expression, from the values recorded while it ran
    /// and where its snapshots were.
    mutating func analyze(_ root: Expression, recorded: [Int32: String], snapshots: [Int32: Int32], snaps: SnapshotTable) -> Analysis {
        var analysis = Analysis(snapshots: snapshots)
        _ = visit(root, hidden: false, recorded, snaps, &analysis)
        return analysis
    }

    /// Whether the caller may see what is stored at snapshot entry `entry`.
    private mutating func contentReadable(_ entry: Int32, _ snaps: SnapshotTable) -> Bool {
        guard entry >= 0, Int(entry) < snaps.entries.count else { return false }
        let keys = snaps.path(of: entry)
        var top = entry
        while snaps[top].parent >= 0 { top = snaps[top].parent }
        if top == newRoot {
            for w in written where !w.readsExisting && w.keys.count <= keys.count {
                var below = true
                for i in w.keys.indices where !KeyOrder.sameBytes(w.keys[i], keys[i]) {
                    below = false
                    break
                }
                if below { return true }
            }
        }
        return canRead(keys)
    }

    /// Whether the rules grant `auth` a plain read of `keys` on the tree before the operation.
    private mutating func canRead(_ keys: [String]) -> Bool {
        if let known = readable[keys] { return known }
        var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: NoTracer(), explain: false)
        e.budget = budget
        // A read the budget cannot decide is denied: the path is then treated as unreadable.
        let answer = e.decide(.read(path: DataPath(keys: keys).description), oldRoot).allowed
        readable[keys] = answer
        return answer
    }

    /// Marks `e` and what is below it; returns whether its value is tainted, and (for a
    /// snapshot) whether its path is.
    private mutating func visit(
        _ e: Expression, hidden: Bool, _ recorded: [Int32: String], _ snaps: SnapshotTable, _ a: inout Analysis
    ) -> (value: Bool, path: Bool) {
        let id = Int32(e.id)
        if hidden { a.hidden.insert(id) }
        var tainted = false
        var path = false
        func any(_ r: (value: Bool, path: Bool)) -> Bool { r.value || r.path }
        switch e.kind {
        case .number, .string, .boolean, .null, .regex:
            break
        case .identifier(let name):
            if name == "data" || name == "newData" || name == "root", recorded[id] != nil {
                // A snapshot's content; `data` that is null (no location) shows nothing.
                if let entry = a.snapshots[id] { tainted = !contentReadable(entry, snaps) }
            }
        case .member(let object, _, _):
            tainted = any(visit(object, hidden: hidden, recorded, snaps, &a))
        case .index(let object, let index):
            let o = visit(object, hidden: hidden, recorded, snaps, &a)
            let i = visit(index, hidden: hidden, recorded, snaps, &a)
            tainted = any(o) || any(i)
        case .call(let callee, let arguments):
            var receiver = (value: false, path: false)
            if case .member(let object, _, _) = callee.kind {
                receiver = visit(object, hidden: hidden, recorded, snaps, &a)
                if hidden { a.hidden.insert(Int32(callee.id)) }
            } else {
                receiver = visit(callee, hidden: hidden, recorded, snaps, &a)
            }
            var argumentTainted = false
            for argument in arguments where any(visit(argument, hidden: hidden, recorded, snaps, &a)) { argumentTainted = true }
            if let entry = a.snapshots[id] {
                // `child()`, `parent()`: a location, reached by a path that may be tainted.
                path = receiver.path || argumentTainted
                tainted = path || !contentReadable(entry, snaps)
            } else {
                tainted = any(receiver) || argumentTainted
            }
        case .unary(_, let operand):
            tainted = any(visit(operand, hidden: hidden, recorded, snaps, &a))
        case .binary(_, let left, let right, _):
            let l = visit(left, hidden: hidden, recorded, snaps, &a)
            let r = visit(right, hidden: hidden, recorded, snaps, &a)
            tainted = any(l) || any(r)
        case .logical(_, let operands):
            var below = hidden
            for operand in operands where any(visit(operand, hidden: below, recorded, snaps, &a)) {
                tainted = true
                below = true
            }
        case .conditional(let condition, let yes, let no):
            let c = any(visit(condition, hidden: hidden, recorded, snaps, &a))
            let y = any(visit(yes, hidden: hidden || c, recorded, snaps, &a))
            let n = any(visit(no, hidden: hidden || c, recorded, snaps, &a))
            tainted = c || y || n
        case .array(let items):
            for item in items where any(visit(item, hidden: hidden, recorded, snaps, &a)) { tainted = true }
        }
        if tainted || path { a.tainted.insert(id) }
        if path { a.pathTainted.insert(id) }
        return (tainted || path, path)
    }
}
