import RulesCompiler
import RulesSyntax

/// The state of one decision (kept in a ``DecisionScratch`` from one decision to the next).
struct Evaluator<T: Tracer> {
    let ruleset: CompiledRuleset
    let tables: EngineTables
    var tracer: T
    let explain: Bool
    /// Whether a write goes on after its first failing rule, evaluating every rule an
    /// explanation shows: when explaining, and when a tracer watches (coverage then counts the
    /// same evaluations with or without an explanation). The decision is the same either way.
    let exhaustive: Bool
    var vm = VM()
    var snaps = SnapshotTable()
    /// What rules see; kept and updated in place, rather than built (and its members retained)
    /// for every rule evaluated.
    var context: EvaluationContext
    var query: QueryParameters {
        get { context.query }
        _modify { yield &context.query }
    }
    var wildcardKeys: [String] {
        get { context.wildcardKeys }
        _modify { yield &context.wildcardKeys }
    }
    /// The rule nodes on the path of the write entry being checked, kept between entries.
    var chain: [(depth: Int, node: Int32, old: Int32, new: Int32, wildcards: Int)] = []
    /// Buffers for a read's path bytes and its keys' byte ranges (see `split`).
    var pathBytes: [UInt8] = []
    var pathBounds: [Int] = []
    /// A single write's path in the tree after it, when it is built before the rules run (an
    /// explained or traced decision): `[i]` is the node at the written keys' first `i`. The path
    /// before the write, with its trails and ranks, is in `snaps.overlay` either way.
    var newPath: [DataNode?] = []
    /// A set's or delete's keys and its one write entry, their storage kept between decisions
    /// (see `single(_:_:)`).
    var singleKeys: [String] = []
    var singleEntry: [([String], DataInput)] = []
    /// Whether an allowed set or delete decided against the overlay leaves its written node in
    /// `deferredWrite` (at `singleKeys`; `.some(nil)` for a delete) instead of building the new
    /// tree (see `applyAndClear`).
    var defersWrite = false
    var deferredWrite: DataNode?? = nil
    /// An update's entries, and the keys of each of its first ``keptUpdatePaths`` paths when it
    /// is at the root, their storage kept between decisions.
    var updateKeys: [[String]] = []
    /// How many update paths keep their key arrays in the scratch: enough for the updates that
    /// apps send, without one huge update leaving thousands of arrays behind.
    static var keptUpdatePaths: Int { 32 }
    var updateEntries: [([String], DataInput)] = []
    /// The ranks of the keys of a write's entries when it has several (an update), computed
    /// once for the merge, the values that increments add to and the permission walk.
    var entryRanks = PathRanks()
    /// An update's entries with their new nodes, and the entries whose ancestors have been
    /// validated: storage kept between decisions, emptied as soon as a write has used them
    /// (the first holds nodes of the new tree).
    var resolvedEntries: [(keys: [String], node: DataNode?)] = []
    var validatedEntries: [Int] = []
    var log: [RuleEvaluation] = []
    /// The evaluation that decided: the first that denied, or the one that granted (an index
    /// in `log`).
    var decisive: Int?
    /// The decision's budget, and why it ran out (the reason a denial then gives), once it has.
    var budget = EvaluationBudget.default
    var exhaustion: String?
    /// The number of the evaluation during which the budget ran out (see `evaluationCount`).
    var exhaustedEvaluation = -1
    /// When explaining: the limits, counts and redaction of the explanation (nil otherwise).
    var recording: ExplanationRecording?
    /// The evaluations made so far when explaining (kept in `log` or not).
    var evaluationCount: Int { recording?.evaluationCount ?? 0 }
    /// The redaction of a redacted explanation.
    var redaction: Redaction? { recording?.redaction }
    /// Whether the operation was denied before the budget ran out (the denial then stands).
    var deniedBeforeExhaustion = false
    /// The depth of the read rule being evaluated (-1 for a write), for the budget's reason.
    var readDepth = -1
    /// When explaining a denial for want of a granting rule: the rule node of the location
    /// (-1: none, or the rules end above it), whose `.read`/`.write` rules below were not
    /// consulted (``Explanation/rulesNotConsulted``).
    var deniedAtNode: Int32 = -1
    /// The time of the decision (`now`, and the value of server timestamps).
    var now: Double { context.now }
    var rootEntry: Int32 {
        get { context.root }
        set { context.root = newValue }
    }

    init(ruleset: CompiledRuleset, tables: EngineTables, auth: AuthValue, now: Double, tracer: T, explain: Bool) {
        self.ruleset = ruleset
        self.tables = tables
        self.tracer = tracer
        self.explain = explain
        self.exhaustive = explain || T.self != NoTracer.self
        self.context = EvaluationContext(auth: auth, now: now, query: QueryParameters(), wildcardKeys: [], root: -1, data: -1, newData: -1)
    }

    /// Decides with this evaluator's storage kept from an earlier decision, then drops every
    /// reference into data trees and the user (snapshots, stack values, `auth`) while keeping
    /// the capacity, so a scratch kept between requests holds no old trees alive.
    mutating func decideAndClear(_ op: DatabaseOperation, _ root: DataNode?, auth: AuthValue, now: Double, budget: EvaluationBudget) -> Decision {
        context.auth = auth
        context.now = now
        self.budget = budget
        let decision = decide(op, root)
        context.auth = .null
        vm.beginDecision()
        if !query.isPlain { query = QueryParameters() }
        snaps.reset()
        wildcardKeys.clearKeepingCapacity()
        // A read leaves the write's state as it found it: empty.
        if op.isWrite {
            snaps.overlay.clear()
            chain.clearKeepingCapacity()
            newPath.clearKeepingCapacity()
            singleEntry.clearKeepingCapacity()
            updateEntries.clearKeepingCapacity()
            // Empty unless a write was rejected while its entries were being resolved.
            resolvedEntries.clearKeepingCapacity()
        }
        // `log` and `decisive` stay empty: this evaluator never explains.
        return decision
    }

    /// ``decideAndClear(_:_:auth:now:budget:)``, and an allowed write applied to `root`: a set
    /// or delete decided against the overlay is written into `root` once this evaluator holds
    /// no reference into it, so the nodes on its path that nothing else holds are changed in
    /// place (``DataNode/write(_:at:in:)``); any other write makes `root` the decision's new
    /// tree. The decision's `newRoot` is `root` afterwards either way.
    mutating func applyAndClear(_ op: DatabaseOperation, _ root: inout DataNode?, auth: AuthValue, now: Double, budget: EvaluationBudget) -> Decision {
        defersWrite = true
        let decision = decideAndClear(op, root, auth: auth, now: now, budget: budget)
        defersWrite = false
        guard let written = deferredWrite else {
            if decision.allowed && op.isWrite { root = decision.newRoot }
            return decision
        }
        deferredWrite = nil
        DataNode.write(written, at: singleKeys, in: &root)
        return Decision(allowed: true, newRoot: root, denial: nil, explanation: nil)
    }

    mutating func decide(_ op: DatabaseOperation, _ root: DataNode?) -> Decision {
        vm.beginDecision()
        vm.remainingSteps = budget.steps
        exhaustion = nil
        deniedBeforeExhaustion = false
        readDepth = -1
        deniedAtNode = -1
        if explain { beginExplaining(root) }
        // `now` is the value of `now` and of server timestamps; a clock that is not a number
        // would store NaN or infinity, which no client can write. Fail closed.
        if let defect = ruleset.defect {
            return reject(op.kindName, root, "Internal error: the compiled rules are inconsistent (\(defect)); every operation is denied.")
        }
        guard now.isFinite else {
            return reject(op.kindName, root, "Internal error: the server time \(now) is not a finite number.")
        }
        switch op {
        case .read(let path, let q):
            if !q.isPlain { query = q }
            // The path's keys are found as byte ranges in a copy of its bytes (buffers kept in
            // the scratch); strings are made only for what a rule reads (see `read`). Anything
            // unusual takes the validating parser, which names the problem or gives the keys of
            // an odd but valid spelling.
            var levels = Self.split(path, into: &pathBytes, &pathBounds)
            if levels == nil {
                let normal: String
                do { normal = try DataPath(validating: path).description } catch { return reject("read \(path)", root, error.message) }
                levels = Self.split(normal, into: &pathBytes, &pathBounds)
            }
            guard let levels else {
                return reject("read \(path)", root, "Internal error: the path \(path) could not be split; the read is denied.")
            }
            let ok = read(levels, root)
            // The title is made only when explaining; it must not capture `self` (a copy).
            let bytes = pathBytes, bounds = pathBounds
            if ok { return finish("read \(Self.display(bytes, bounds, levels))", true, root, nil) }
            return finish("read \(Self.display(bytes, bounds, levels))", false, root, .noRule(kind: "read", path: path))
        case .set(let path, let value):
            if !exhaustive && DataPath.splitValidKeys(path, into: &singleKeys) {
                return writeOverlaid(singleKeys, value, root, path: path)
            }
            if single(path, value) {
                let keys = singleKeys
                return write("set \(DataPath(keys: keys))", singleEntry, root, path: path)
            }
            do {
                let p = try DataPath(validating: path)
                return write("set \(p)", [(p.keys, value)], root)
            } catch { return reject("set \(path)", root, error.message) }
        case .delete(let path):
            if !exhaustive && DataPath.splitValidKeys(path, into: &singleKeys) {
                return writeOverlaid(singleKeys, .null, root, path: path)
            }
            if single(path, .null) {
                let keys = singleKeys
                return write("delete \(DataPath(keys: keys))", singleEntry, root, path: path)
            }
            do {
                let p = try DataPath(validating: path)
                return write("delete \(p)", [(p.keys, .null)], root)
            } catch { return reject("delete \(path)", root, error.message) }
        case .push(let path, let value, let key):
            do {
                let p = try DataPath(validating: path)
                // The key is one key: joining it as text would let "" write at the parent,
                // "a/b" write two levels down, and any key fail at the root ("//key").
                let keys = p.keys + [key]
                try DataPath.validate(key: key, at: keys)
                try DataPath.checkDepth(keys)
                return write("push \(p) (key \(key))", [(keys, value)], root)
            } catch { return reject("push \(path)", root, error.message) }
        case .update(let path, let values):
            let base: DataPath
            do { base = try DataPath(validating: path) } catch { return reject("update \(path)", root, error.message) }
            // The entries, and (for an update at the root) their keys, in storage kept from the
            // last decision; emptied first, so that the kept key arrays are not shared.
            updateEntries.clearKeepingCapacity()
            for (index, (rel, v)) in values.enumerated() {
                do {
                    let keys: [String]
                    if base.keys.isEmpty && index < Self.keptUpdatePaths {
                        // Most updates are at the root: the keys are the relative path's.
                        if index == updateKeys.count { updateKeys.append([]) }
                        keys = DataPath.splitValidKeys(rel, into: &updateKeys[index]) ? updateKeys[index] : try DataPath(validating: rel).keys
                    } else if base.keys.isEmpty {
                        keys = try DataPath(validating: rel).keys
                    } else {
                        keys = base.keys + (try DataPath(validating: rel).keys)
                    }
                    // An empty relative path ("", "/") names the update's own location: writing
                    // it would replace the whole node, siblings of the other paths included.
                    // Production refuses empty keys in an update; so does the engine.
                    if keys.count == base.keys.count {
                        return reject("update \(base)", root, "Invalid update path '\(rel)': an update path must name a child of \(base) (an empty path would replace the whole node).")
                    }
                    if keys.count >= DataLimits.maxDepth {
                        return reject("update \(base)", root, "Path \(display(keys)) is too deep: \(keys.count) levels (the limit is \(DataLimits.maxDepth - 1)).")
                    }
                    updateEntries.append((keys, v))
                } catch {
                    return reject("update \(base)", root, "Invalid update path '\(rel)': \(error.message)")
                }
            }
            if let overlap = Self.overlap(updateEntries) {
                return reject("update \(base)", root, "Update paths overlap: \(display(overlap.0)) and \(display(overlap.1)).")
            }
            return write("update \(base)", updateEntries, root)
        }
    }
}

extension Evaluator: Sendable where T: Sendable {}
