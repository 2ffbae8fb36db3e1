import RulesCompiler
import RulesSyntax

/// Decides reads, sets, deletes, pushes and multi-path updates against a compiled ruleset
/// (spec §8): `.read`/`.write` only along the path, any true grants; `.validate` on every
/// non-null node the write carries and on its ancestors, against one merged new tree; never on null.
///
/// The engine is an immutable value; share it across threads. Each call makes its own scratch
/// state, or uses the caller's ``DecisionScratch`` (one per thread) to avoid allocating it.
public struct RulesEngine: Sendable {
    /// The rules.
    public let ruleset: CompiledRuleset

    /// Flat copies of the node and rule facts the hot loops read.
    let tables: EngineTables

    /// The work one decision may do (``EvaluationBudget/default`` unless set).
    public var budget: EvaluationBudget = .default

    /// How much an explanation records (``ExplanationLimits/default`` unless set).
    public var explanationLimits: ExplanationLimits = .default

    /// Creates an engine for a ruleset.
    public init(ruleset: CompiledRuleset) {
        self.ruleset = ruleset
        self.tables = EngineTables(ruleset)
    }

    /// Decides an operation on the tree `root` for the user `auth` at time `now` (ms).
    ///
    /// With `redactUnreadable` (and `explain`), the explanation is safe to show to the caller:
    /// every value in it that was derived from data the caller may not read (by the same rules'
    /// `.read`, for `auth`, on `root`) is shown as `<unreadable>`, and it leaves out what the
    /// fast decision would not have revealed (see ``Explanation`` and `docs/decisions.md`).
    /// The decision itself is the same either way.
    public func decide(
        _ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double, explain: Bool = false,
        redactUnreadable: Bool = false
    ) -> Decision {
        if explain {
            var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: RecordingTracer(), explain: true)
            e.budget = budget
            e.recording = ExplanationRecording(limits: explanationLimits, redact: redactUnreadable)
            return e.decide(operation, root)
        }
        var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: NoTracer(), explain: false)
        e.budget = budget
        return e.decide(operation, root)
    }

    /// Decides an operation using the caller's scratch storage, which keeps its capacity from
    /// one call to the next: the same decision as ``decide(_:on:auth:now:explain:)`` without
    /// an explanation, and without heap allocations for a read once the scratch is warm.
    public func decide(_ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double, scratch: inout DecisionScratch) -> Decision {
        // The scratch keeps a whole evaluator for the last engine it served: nothing to build,
        // move in or tear down per call.
        if scratch.engine != ObjectIdentifier(tables) || scratch.evaluator == nil {
            scratch.evaluator = Evaluator(ruleset: ruleset, tables: tables, auth: .null, now: 0, tracer: NoTracer(), explain: false)
            scratch.engine = ObjectIdentifier(tables)
        }
        return scratch.evaluator!.decideAndClear(operation, root, auth: auth, now: now, budget: budget)
    }

    /// Decides an operation with the caller's tracer, which sees every sub-expression value (for
    /// coverage). When `explain` is true the engine calls `tracer.take()` once after each rule it
    /// evaluates, in the order of ``Explanation/evaluations``, and renders what it returns.
    public func decide<T: Tracer>(
        _ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue = .null, now: Double, explain: Bool,
        tracer: inout T
    ) -> Decision {
        var e = Evaluator(ruleset: ruleset, tables: tables, auth: auth, now: now, tracer: tracer, explain: explain)
        e.budget = budget
        if explain { e.recording = ExplanationRecording(limits: explanationLimits, redact: false) }
        let decision = e.decide(operation, root)
        tracer = e.tracer
        return decision
    }
}

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

    // MARK: - Reads

    /// Whether a `.read` rule on the path or above it grants the read. The path is the first
    /// `levels` keys of `pathBytes`, at the byte ranges in `pathBounds` (see
    /// ``DataPath/keyBounds(_:into:)``).
    ///
    /// The walk down the rule tree compares bytes. A rule that reads neither `data` nor a `$`
    /// variable (`auth != null`) runs without its location: the snapshot entries and wildcard
    /// keys down to a rule's depth are made only when it needs them (or when tracing).
    private mutating func read(_ levels: Int, _ root: DataNode?) -> Bool {
        snaps.reset()
        // The root is entered in the snapshot table when the first rule that reads a snapshot
        // runs (`auth != null` reads none).
        rootEntry = -1
        wildcardKeys.clearKeepingCapacity()
        // The deepest location entered in the snapshot table, and its depth.
        var entry: Int32 = -1
        var entryDepth = 0
        // Bit `d` set: the key at depth `d` was matched by a wildcard (paths have at most
        // `DataLimits.maxPathLevels` keys, fewer than 64).
        var wildcardDepths: UInt64 = 0
        let always = explain || !(T.self == NoTracer.self)
        var nodeIndex: Int32 = 0
        var depth = 0
        while true {
            // Members are read through the array, not a copy of the node (which would retain
            // and release its dictionary and strings on every level).
            let readRule = tables.nodes[Int(nodeIndex)].read
            if readRule >= 0 {
                let rule = tables.rules[Int(readRule)]
                if entry < 0 && (always || rule.readsSnapshots) {
                    entry = snaps.addRoot(root)
                    rootEntry = entry
                }
                if always || rule.readsLocation {
                    while entryDepth < depth {
                        let key = String(decoding: pathBytes[pathBounds[2 * entryDepth]..<pathBounds[2 * entryDepth + 1]], as: UTF8.self)
                        if wildcardDepths & (1 << UInt64(entryDepth)) != 0 { wildcardKeys.append(key) }
                        entry = snaps.addChild(of: entry, key: key)
                        entryDepth += 1
                    }
                }
                readDepth = depth
                let outcome = evaluate(readRule, data: entry, newData: -1)
                if explain { decisive = logIndex(ofEvaluation: evaluationCount - 1) }
                if outcome.isTrue { return true }
            }
            if depth == levels {
                if explain { deniedAtNode = nodeIndex }
                return false
            }
            guard let (child, isWildcard) = tables.child(of: nodeIndex, pathBytes, pathBounds[2 * depth]..<pathBounds[2 * depth + 1], in: ruleset) else {
                return false
            }
            if isWildcard { wildcardDepths |= 1 << UInt64(depth) }
            nodeIndex = child
            depth += 1
        }
    }

    /// Copies a path's bytes into `bytes` and finds its keys' byte ranges
    /// (``DataPath/keyBounds(_:into:)``): the number of keys, or nil for a path that is not
    /// plainly valid. Both buffers only grow, and their elements are plain integers, so
    /// nothing is cleared between decisions.
    private static func split(_ path: String, into bytes: inout [UInt8], _ bounds: inout [Int]) -> Int? {
        let n = path.utf8.count
        if bytes.count < n { bytes = [UInt8](repeating: 0, count: Swift.max(n, 64)) }
        if bounds.count < 2 * DataLimits.maxPathLevels { bounds = [Int](repeating: 0, count: 2 * DataLimits.maxPathLevels) }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let copied =
                path.utf8.withContiguousStorageIfAvailable { source in
                    if n > 0, let from = source.baseAddress, let to = buffer.baseAddress { to.update(from: from, count: n) }
                    return n
                } ?? buffer.initialize(from: path.utf8).1
            guard copied == n else { return nil }
            return bounds.withUnsafeMutableBufferPointer { b in
                DataPath.keyBounds(UnsafeBufferPointer(rebasing: buffer[0..<n]), into: b)
            }
        }
    }

    /// `/a/b` for the first `levels` keys of a path given as byte ranges; `/` for the root.
    private static func display(_ path: [UInt8], _ bounds: [Int], _ levels: Int) -> String {
        guard levels > 0 else { return "/" }
        // Keys are separated by exactly one "/" (there are no empty keys).
        return "/" + String(decoding: path[bounds[0]..<bounds[2 * levels - 1]], as: UTF8.self)
    }

    // MARK: - Writes

    /// Splits a plainly valid path into `singleKeys` and makes `singleEntry` the one write of
    /// `value` there, both in the storage kept from the last decision (no arrays allocated);
    /// false for any other path, which the validating parser then reports or normalises.
    private mutating func single(_ path: String, _ value: DataInput) -> Bool {
        // Emptied first, so that `singleKeys` is not shared with the last entry and is written in
        // place.
        singleEntry.clearKeepingCapacity()
        guard DataPath.splitValidKeys(path, into: &singleKeys) else { return false }
        singleEntry.append((singleKeys, value))
        return true
    }

    /// `path` is the operation's path as written, when `entries` is the one write there: a
    /// denial then names it without building the text (see ``DenialReason``).
    private mutating func write(_ title: @autoclosure () -> String, _ entries: [([String], DataInput)], _ oldRoot: DataNode?,
                                path: String? = nil) -> Decision {
        if !query.isPlain { query = QueryParameters() }
        // 1. One merged new tree, with server values resolved against the tree before the write.
        // A single entry is copied along the path it has already looked up; several entries are
        // merged in one pass (entry by entry would copy a shared parent's child list per entry).
        // Paths never overlap, so each existing value is read from the tree before the write.
        // A single entry also keeps both versions of its path, which the rules' `data` and
        // `newData` along it then need not search for again.
        let single = entries.count == 1
        // A single write is decided against the overlay, which builds the new tree's path only
        // if a rule reads an ancestor whole, and once the write is allowed; an explained or
        // traced decision builds the tree first (its tracer reads snapshots by value).
        let overlaid = single && !exhaustive
        if !single {
            entryRanks.removeAll()
            for (keys, _) in entries { entryRanks.append(keys) }
        }
        var newRoot = oldRoot
        for (entryIndex, (keys, input)) in entries.enumerated() {
            if overlaid {
                if let problem = beginOverlay(keys, input, oldRoot) { return reject(title(), oldRoot, problem) }
                continue
            }
            // Keys, string sizes and depth of the written value, checked before any rule runs.
            do { try input.validate(at: DataPath(keys: keys)) } catch { return reject(title(), oldRoot, error.message) }
            let existing: DataNode?
            if single {
                // The path before the write, looked up once, with where each child was found.
                DataNode.pathNodes(oldRoot, keys, into: &snaps.overlay.oldPath, trails: &snaps.overlay.trails, ranks: &snaps.overlay.ranks)
                existing = snaps.overlay.oldPath[keys.count]
            } else {
                // Only an increment needs the value it adds to.
                existing = input.readsExisting ? oldRoot?.descendant(keys, ranks: entryRanks, path: entryIndex) : nil
            }
            let node = input.resolved(now: now, existing: existing)
            if let node, keys.count + Self.height(node, limit: DataLimits.maxDepth) >= DataLimits.maxDepth {
                return reject(title(), oldRoot, Self.tooDeep(keys))
            }
            if single {
                newRoot = DataNode.replacing(oldRoot, along: snaps.overlay.oldPath, keys, with: node, newPath: &newPath, trails: snaps.overlay.trails)
            } else {
                resolvedEntries.append((keys, node))
            }
        }
        if !single {
            newRoot = DataNode.replacing(oldRoot, disjointEntries: resolvedEntries, ranks: entryRanks)
            resolvedEntries.clearKeepingCapacity()
        }
        snaps.reset()
        rootEntry = snaps.addRoot(oldRoot)
        let newRootEntry = overlaid ? snaps.addOverlayRoot() : snaps.addRoot(newRoot)
        if let recording, recording.redaction != nil {
            recording.redaction!.newRoot = newRootEntry
            recording.redaction!.written = entries.map { ($0.0, $0.1.readsExisting) }
        }
        var denial: DenialReason?
        // The entries whose ancestors have been validated: an ancestor shared with one of them
        // (the same key bytes down to its depth) is not validated again. Comparing the few keys
        // costs less than hashing every ancestor path into a set.
        validatedEntries.clearKeepingCapacity()

        for (entryIndex, (keys, _)) in entries.enumerated() {
            // 2. Permission.
            let walk = walkPermission(keys, from: rootEntry, newRootEntry, overlaid ? .overlay : single ? .built : .searched(entryIndex))
            if walk.permitted && decisive == nil && denial == nil { decisive = logIndex(ofEvaluation: walk.lastWrite) }
            if !walk.permitted {
                if denial == nil {
                    decisive = logIndex(ofEvaluation: walk.lastWrite)
                    deniedBeforeExhaustion = exhaustion == nil
                    if explain && walk.reachedTarget { deniedAtNode = walk.nodeIndex }
                }
                denial = denial ?? (path.map { .noRule(kind: "write", path: $0) } ?? .text("no .write rule on \(display(keys)) or above it granted the write"))
                if !exhaustive { break }
                continue
            }
            // 3a. Validation of the ancestors and the written location.
            validateChain(keys, path: path, entries, &denial)
            if entries.count > 1 { validatedEntries.append(entryIndex) }
            if denial != nil && !exhaustive { break }
            // 3b. Validation of the written subtree (below the location; it was validated above).
            if walk.reachedTarget, tables.nodes[Int(walk.nodeIndex)].validatesBelow, snaps.exists(walk.newEntry) {
                if !validateSubtree(walk.nodeIndex, walk.oldEntry, walk.newEntry, &denial) && !exhaustive { break }
            }
        }
        let allowed = denial == nil && exhaustion == nil
        // An increment whose sum is not finite is refused once the rules allow the write (before
        // that, the refusal would tell a caller who may not read the number something about it).
        if allowed && exhaustion == nil {
            for (keys, input) in entries where input.readsExisting {
                let existing = single ? snaps.overlay.oldPath[keys.count] : oldRoot?.descendant(keys)
                if let problem = input.overflow(existing: existing, at: keys) { return reject(title(), oldRoot, problem) }
            }
        }
        // The new tree is built (what is left of it) only now that the write is allowed.
        if allowed && overlaid { newRoot = snaps.overlay.node(at: 0) }
        return finish(title(), allowed, allowed ? newRoot : oldRoot, denial)
    }

    /// A set or delete at a plainly valid `path` (split into `keys`), decided without tracing or
    /// explaining: ``write(_:_:_:path:)`` for its one entry against the overlay, the common
    /// write kept apart from the general loop, so that nothing is copied per entry (the entry
    /// list, the validated entries, the wildcard keys) and a denial is returned as soon as the
    /// permission walk ends.
    private mutating func writeOverlaid(_ keys: [String], _ input: DataInput, _ oldRoot: DataNode?, path: String) -> Decision {
        if !query.isPlain { query = QueryParameters() }
        // 1. The written value checked and described in the overlay.
        if let problem = beginOverlay(keys, input, oldRoot) { return reject("", oldRoot, problem) }
        snaps.reset()
        rootEntry = snaps.addRoot(oldRoot)
        // 2. Permission.
        let walk = walkPermission(keys, from: rootEntry, snaps.addOverlayRoot(), .overlay)
        guard walk.permitted else {
            if let exhaustion { return Decision(allowed: false, newRoot: oldRoot, denial: .text(exhaustion), explanation: nil, exhausted: true) }
            return Decision(allowed: false, newRoot: oldRoot, denial: .noRule(kind: "write", path: path), explanation: nil)
        }
        // 3a. Validation of the ancestors and the written location.
        var denial: DenialReason?
        validateChain(keys, path: path, [], &denial)
        // 3b. Validation of the written subtree (below the location; it was validated above).
        if denial == nil, walk.reachedTarget, tables.nodes[Int(walk.nodeIndex)].validatesBelow, snaps.exists(walk.newEntry) {
            _ = validateSubtree(walk.nodeIndex, walk.oldEntry, walk.newEntry, &denial)
        }
        if let exhaustion { return Decision(allowed: false, newRoot: oldRoot, denial: .text(exhaustion), explanation: nil, exhausted: true) }
        if denial != nil { return Decision(allowed: false, newRoot: oldRoot, denial: denial, explanation: nil) }
        if input.readsExisting, let problem = input.overflow(existing: snaps.overlay.oldPath[keys.count], at: keys) {
            return reject("", oldRoot, problem)
        }
        // The new tree is built (what is left of it) only now that the write is allowed.
        return Decision(allowed: true, newRoot: snaps.overlay.node(at: 0), denial: nil, explanation: nil)
    }

    /// Checks the value of a single write at `keys` (its keys, sizes and depth, before any rule
    /// runs), looks up the path before the write once, and describes the write in the overlay;
    /// nil, or why the write is rejected. A leaf is made only when a rule reads it, or once the
    /// write is allowed; it adds no level.
    @inline(__always)
    private mutating func beginOverlay(_ keys: [String], _ input: DataInput, _ oldRoot: DataNode?) -> String? {
        do { try input.validate(at: DataPath(keys: keys)) } catch { return error.message }
        DataNode.pathNodes(oldRoot, keys, into: &snaps.overlay.oldPath, trails: &snaps.overlay.trails, ranks: &snaps.overlay.ranks)
        if input.resolvesToLeaf {
            if keys.count >= DataLimits.maxDepth { return Self.tooDeep(keys) }
            snaps.overlay.begin(keys, writingLeaf: input, now: now)
        } else {
            let node = input.resolved(now: now, existing: snaps.overlay.oldPath[keys.count])
            if let node, keys.count + Self.height(node, limit: DataLimits.maxDepth) >= DataLimits.maxDepth { return Self.tooDeep(keys) }
            snaps.overlay.begin(keys, writing: node)
        }
        return nil
    }

    /// How ``walkPermission(_:from:_:_:)`` enters the locations along a written path in the
    /// snapshot table.
    private enum PathEntries {
        /// The single write described by the overlay: both trees' nodes come from it, with the
        /// keys' ranks found by the look-up along the path.
        case overlay
        /// The single write already built: the nodes are `snaps.overlay.oldPath` and `newPath`.
        case built
        /// One of several entries (its index): the nodes are looked up when read, with the keys'
        /// ranks from `entryRanks`.
        case searched(Int)
    }

    /// Where the permission walk of one write entry ended.
    private struct PermissionWalk {
        /// Whether a `.write` rule on the path granted the write.
        var permitted = false
        /// The number of the last `.write` evaluated (see `evaluationCount`), when explaining.
        var lastWrite: Int?
        /// Whether the rule tree reaches the written location (else it stopped above it).
        var reachedTarget = false
        /// The rule node, and the old and new trees' snapshot entries, where the walk stopped.
        var nodeIndex: Int32 = 0
        var oldEntry: Int32, newEntry: Int32
    }

    /// Permission for one write entry: the `.write` rules from the root down to `keys`, any
    /// true grants (the rest are not evaluated). Records each level in `chain` for the
    /// validation that follows, and binds the path's wildcard keys in `wildcardKeys`.
    @inline(__always)
    private mutating func walkPermission(_ keys: [String], from oldRoot: Int32, _ newRoot: Int32, _ pathEntries: PathEntries) -> PermissionWalk {
        var walk = PermissionWalk(oldEntry: oldRoot, newEntry: newRoot)
        wildcardKeys.clearKeepingCapacity()
        chain.clearKeepingCapacity()
        chain.reserveCapacity(keys.count + 1)
        var depth = 0
        while true {
            let writeRule = tables.nodes[Int(walk.nodeIndex)].write
            chain.append((depth, walk.nodeIndex, walk.oldEntry, walk.newEntry, wildcardKeys.count))
            if !walk.permitted && writeRule >= 0 {
                walk.permitted = evaluate(writeRule, data: walk.oldEntry, newData: walk.newEntry).isTrue
                if explain { walk.lastWrite = evaluationCount - 1 }
            }
            if depth == keys.count {
                walk.reachedTarget = true
                return walk
            }
            let key = keys[depth]
            guard let (child, isWildcard) = tables.child(of: walk.nodeIndex, key, in: ruleset) else { return walk }
            if isWildcard { wildcardKeys.append(key) }
            walk.nodeIndex = child
            switch pathEntries {
            case .overlay:
                // The key's rank, computed by the look-up along the path, spares byte
                // comparisons with the entries already there.
                let rank = snaps.overlay.ranks[depth]
                walk.oldEntry = snaps.addChild(of: walk.oldEntry, key: key, node: snaps.overlay.oldPath[depth + 1], rank: rank)
                // On the written path: the overlay's entry (or the written node at the end).
                walk.newEntry = snaps.addChild(of: walk.newEntry, key: key, rank: rank)
            case .built:
                walk.oldEntry = snaps.addChild(of: walk.oldEntry, key: key, node: snaps.overlay.oldPath[depth + 1])
                walk.newEntry = snaps.addChild(of: walk.newEntry, key: key, node: newPath[depth + 1])
            case .searched(let entry):
                // The key's rank, computed once for the write, spares byte comparisons with
                // the entries already there and a computation in each look-up.
                let rank = entryRanks.rank(entry, depth)
                walk.oldEntry = snaps.addChild(of: walk.oldEntry, key: key, rank: rank)
                walk.newEntry = snaps.addChild(of: walk.newEntry, key: key, rank: rank)
            }
            depth += 1
        }
    }

    /// The `.validate` rules along the `chain` of a permitted entry at `keys` (its ancestors
    /// and the written location), where the new data is non-null, each seeing the wildcard
    /// keys bound down to its own depth. An ancestor shared with one of `entries`' validated
    /// entries is skipped. The first failure sets `denial`; unless exhaustive, it ends the
    /// walk. All of the path's wildcard keys are bound again afterwards.
    @inline(__always)
    private mutating func validateChain(_ keys: [String], path: String?, _ entries: [([String], DataInput)], _ denial: inout DenialReason?) {
        // The path's wildcard keys, kept aside only once a rule above a wildcard runs.
        var allKeys: [String]?
        for link in chain {
            let validateRule = tables.nodes[Int(link.node)].validate
            guard validateRule >= 0, snaps.exists(link.new) else { continue }
            // Entries of one update can share ancestors; each is validated once.
            if entries.count > 1 && Self.validatedBefore(depth: link.depth, of: keys, by: validatedEntries, entries) { continue }
            if wildcardKeys.count != link.wildcards {
                if allKeys == nil { allKeys = wildcardKeys }
                wildcardKeys = Array(allKeys!.prefix(link.wildcards))
            }
            if !evaluate(validateRule, data: link.old, newData: link.new).isTrue {
                if denial == nil {
                    decisive = logIndex(ofEvaluation: evaluationCount - 1)
                    deniedBeforeExhaustion = exhaustion == nil
                }
                denial = denial ?? (path.map { .validateFailed(rulePath: ruleset.rules[Int(validateRule)].rulePath, path: $0, depth: link.depth) }
                    ?? .text("\(ruleset.rules[Int(validateRule)].rulePath) failed on \(display(Array(keys.prefix(link.depth))))"))
                if !exhaustive { break }
            }
        }
        if let allKeys { wildcardKeys = allKeys }
    }

    /// The message for a write whose data would be too deep.
    private static func tooDeep(_ keys: [String]) -> String {
        "Writing at /\(keys.joined(separator: "/")) would store data more than \(DataLimits.maxDepth - 1) levels deep."
    }

    /// Validates every non-null descendant of a written location that has rules, depth first.
    /// Returns false on the first failure (and keeps going only when explaining).
    private mutating func validateSubtree(_ nodeIndex: Int32, _ oldEntry: Int32, _ newEntry: Int32, _ denial: inout DenialReason?) -> Bool {
        guard let newNode = snaps.node(newEntry), newNode.value == nil else { return true }
        var ok = true
        // Children in order, straight from the node's child tree (no arrays of keys and nodes
        // built per object). After a failure, unless explaining, the rest are skipped.
        newNode.forEachChild { key, newChild in
            if !ok && !exhaustive { return }
            guard let (childIndex, isWildcard) = tables.child(of: nodeIndex, key, in: ruleset) else { return }
            guard tables.nodes[Int(childIndex)].validatesBelow else { return }
            let validateRule = tables.nodes[Int(childIndex)].validate
            // Each child is visited once: no search among the siblings already entered.
            let o = snaps.addNewChild(of: oldEntry, key: key, node: nil, resolved: false)
            let n = snaps.addNewChild(of: newEntry, key: key, node: newChild, resolved: true)
            if isWildcard { wildcardKeys.append(key) }
            defer { if isWildcard { wildcardKeys.removeLast() } }
            if validateRule >= 0 && !evaluate(validateRule, data: o, newData: n).isTrue {
                if denial == nil {
                    decisive = logIndex(ofEvaluation: evaluationCount - 1)
                    deniedBeforeExhaustion = exhaustion == nil
                }
                denial = denial ?? .text("\(ruleset.rules[Int(validateRule)].rulePath) failed on \(display(snaps.path(of: n)))")
                ok = false
                if !exhaustive { return }
            }
            if !validateSubtree(childIndex, o, n, &denial) { ok = false }
        }
        return ok
    }

    // MARK: - Rules

    private mutating func evaluate(_ ruleIndex: Int32, data: Int32, newData: Int32) -> RuleOutcome {
        // A step per rule evaluated; once the budget has run out, every rule fails at once
        // (and is neither traced nor recorded).
        vm.remainingSteps &-= 1
        if vm.remainingSteps < 0 {
            if exhaustion == nil { return budgetRanOut(ruleIndex, data: data, newData: newData, at: nil) }
            return .error(RuntimeError("evaluation budget exhausted", range: ruleset.rules[Int(ruleIndex)].range))
        }
        context.data = data
        context.newData = newData
        let rule = tables.rules[Int(ruleIndex)]
        var outcome: RuleOutcome
        if rule.constant >= 0 {
            outcome = .value(rule.constant == 1)
        } else if rule.authCheck >= 0 && !explain && T.self == NoTracer.self {
            // `auth != null` / `auth == null`: nothing to trace, so no need to run the code.
            let signedIn: Bool
            if case .null = context.auth { signedIn = false } else { signedIn = true }
            outcome = .value(signedIn == (rule.authCheck == 1))
        } else {
            outcome = vm.run(code: rule.codeStart..<rule.codeEnd, in: ruleset, tables: tables, context: context, snapshots: &snaps, tracer: &tracer)
            // Also when the rule's last instruction overspent (its result then does not count).
            if vm.remainingSteps < 0 {
                if case .error(let e) = outcome { return budgetRanOut(ruleIndex, data: data, newData: newData, at: e.range) }
                return budgetRanOut(ruleIndex, data: data, newData: newData, at: nil)
            }
        }
        if T.self != NoTracer.self { tracer.ruleEvaluated(ruleIndex, outcome: outcome) }
        if explain { record(Int(ruleIndex), outcome, data) }
        return outcome
    }

    /// Makes what an explained decision records (kept out of ``decide(_:_:)``, which every plain
    /// decision runs).
    @inline(never)
    private mutating func beginExplaining(_ root: DataNode?) {
        if recording == nil { recording = ExplanationRecording(limits: .default, redact: false) }
        if recording!.redact {
            recording!.redaction = Redaction(oldRoot: root, ruleset: ruleset, tables: tables, auth: context.auth, now: now, budget: budget)
        }
    }

    /// The budget ran out while evaluating rule `ruleIndex` (at `range` in its code, or before
    /// it started): the reason is written, and the evaluation fails (and is recorded, when
    /// explaining, as the one that decides).
    @inline(never)
    private mutating func budgetRanOut(_ ruleIndex: Int32, data: Int32, newData: Int32, at range: SourceRange?) -> RuleOutcome {
        let rule = ruleset.rules[Int(ruleIndex)]
        let file = ruleset.file
        let location = file.location(of: range ?? rule.range)
        let entry = data >= 0 ? data : newData
        // A read's rule may run without its location in the snapshot table.
        let path = readDepth >= 0 ? Self.display(pathBytes, pathBounds, readDepth) : entry >= 0 ? display(snaps.path(of: entry)) : "/"
        let message = "evaluation budget exhausted (\(budget.steps) steps) at \(path) in \(rule.rulePath) at \(file.path):\(location.line):\(location.column)"
        exhaustion = message
        exhaustedEvaluation = evaluationCount
        let outcome = RuleOutcome.error(RuntimeError(message, range: range ?? rule.range))
        if T.self != NoTracer.self { tracer.ruleEvaluated(ruleIndex, outcome: outcome) }
        if explain { record(Int(ruleIndex), outcome, data) }
        return outcome
    }

    typealias PendingEvaluation = ExplanationRecording.Pending

    private mutating func record(_ ruleIndex: Int, _ outcome: RuleOutcome, _ dataEntry: Int32) {
        let stored = tracer.takeStored()
        let snapshots = tracer.takeSnapshotEntries()
        let recorded = tracer.take()
        guard let recording else { return }
        let evaluation = PendingEvaluation(
            id: recording.evaluationCount, rule: ruleIndex, outcome: outcome, dataEntry: dataEntry, wildcardKeys: wildcardKeys,
            recorded: recorded, stored: stored, snapshots: snapshots)
        recording.evaluationCount += 1
        if log.count < recording.limits.maxEvaluations && recording.recordedBytes < recording.limits.maxValueBytes {
            let built = build(evaluation)
            recording.recordedBytes += built.valueBytes
            log.append(built)
        } else {
            // Kept aside until the next evaluation, in case it decides.
            recording.pending = evaluation
            recording.omittedEvaluations += 1
        }
    }

    /// The index in `log` of evaluation number `id` (see `evaluationCount`), recording it first
    /// if it is the last evaluation and was not kept; nil when not explaining.
    @inline(never)
    private mutating func logIndex(ofEvaluation id: Int?) -> Int? {
        guard explain, let id, id >= 0 else { return nil }
        if let last = log.last, last.id == id { return log.count - 1 }
        if let recording, let p = recording.pending, p.id == id {
            recording.pending = nil
            recording.omittedEvaluations -= 1
            log.append(build(p))
            return log.count - 1
        }
        // Kept evaluations are in the order of their numbers.
        var low = 0, high = log.count
        while low < high {
            let mid = (low + high) / 2
            if log[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low < log.count && log[low].id == id ? low : nil
    }

    /// An evaluation for the explanation; redacted when explaining for the caller.
    private mutating func build(_ p: PendingEvaluation) -> RuleEvaluation {
        let rule = ruleset.rules[p.rule]
        let file = ruleset.file
        var outcome = p.outcome
        var stored = p.stored
        var recorded = p.recorded
        var values: [(text: String, value: String)] = []
        var source = ""
        var falsePart: String?
        var deciding: (value: String, detail: String?)?
        var excerpt: SourceExcerpt?
        var alternatives: [FalseAlternative] = []
        var readsUnreadable = false
        var withheldError = false
        if let expr = rule.expression {
            source = Self.oneLine(expr.source.text)
            var nodes: [Expression] = []
            Self.collect(expr.root, into: &nodes)
            var taint: Redaction.Analysis?
            if let recording, recording.redaction != nil {
                let analysis = recording.redaction!.analyze(expr.root, recorded: p.recorded, snapshots: p.snapshots, snaps: snaps)
                recorded = analysis.redacted(p.recorded, snaps: snaps)
                for id in analysis.tainted { stored[id] = nil }
                readsUnreadable = analysis.readsUnreadable
                if readsUnreadable, case .error = outcome { withheldError = true }
                taint = analysis
            }
            // An object `val()` returned is shown by the keys of the snapshot it was called on.
            for n in nodes where recorded[Int32(n.id)] == Value.object.description {
                if case .call(let callee, let arguments) = n.kind, arguments.isEmpty,
                   case .member(let object, "val", _) = callee.kind, let here = stored[Int32(object.id)] ?? nil {
                    recorded[Int32(n.id)] = ExplanationFormat.objectSummary(here)
                }
            }
            if case .value(false) = outcome, let node = Self.decidingFalse(expr.root, recorded, known: true, strict: taint != nil) {
                if node !== expr.root { falsePart = Self.oneLine(file.text(of: expr.fileRange(of: node))) }
                // The part that decided is false (known, or implied by the outcome), even when
                // what it compared is withheld.
                var value = recorded[Int32(node.id)] ?? "false"
                if taint != nil, p.recorded[Int32(node.id)] ?? "false" == "false" { value = "false" }
                deciding = (value, Self.falseDetail(node, expr, file, recorded, stored))
                excerpt = SourceExcerpt(file: file, range: expr.fileRange(of: node))
                for part in Self.falseAlternatives(expr.root, recorded, strict: taint != nil) {
                    var value = recorded[Int32(part.id)] ?? "false"
                    if taint != nil, p.recorded[Int32(part.id)] ?? "false" == "false" { value = "false" }
                    alternatives.append(FalseAlternative(
                        part: Self.oneLine(file.text(of: expr.fileRange(of: part))), value: value,
                        detail: Self.falseDetail(part, expr, file, recorded, stored)))
                }
            }
            for n in nodes.sorted(by: { ($0.range.start, -$0.range.end) < ($1.range.start, -$1.range.end) }) {
                guard let v = recorded[Int32(n.id)] else { continue }
                if case .boolean = n.kind { continue }
                if case .number = n.kind { continue }
                if case .string = n.kind { continue }
                let text = Self.oneLine(file.text(of: expr.fileRange(of: n)))
                values.append((text, v))
            }
        } else if let c = rule.constant {
            source = c ? "true" : "false"
            if !c { excerpt = SourceExcerpt(file: file, range: rule.range) }
        }
        var bindings: [(name: String, value: String)] = []
        let names = Self.wildcardNames(ruleset, rule)
        for (i, key) in p.wildcardKeys.enumerated() where i < names.count {
            bindings.append((names[i], key))
        }
        var errorLocation: SourceLocation?
        if case .error(let e) = outcome {
            if withheldError && p.id != exhaustedEvaluation {
                // What went wrong, and where, could tell what the rule read.
                outcome = .error(RuntimeError("the rule failed (the error is withheld: the rule read data the caller may not read)", range: rule.range))
                excerpt = SourceExcerpt(file: file, range: rule.range)
            } else {
                errorLocation = file.location(of: e.range)
                excerpt = SourceExcerpt(file: file, range: e.range)
            }
        }
        var evaluation = RuleEvaluation(
            id: p.id, kind: rule.kind, dataPath: display(snaps.path(of: p.dataEntry)), rulePath: rule.rulePath,
            file: file.path, location: file.location(of: rule.range), outcome: outcome, errorLocation: errorLocation,
            bindings: bindings, source: source, values: values, falsePart: falsePart,
            decidingValue: deciding?.value, falseDetail: deciding?.detail, excerpt: excerpt)
        evaluation.readsUnreadable = readsUnreadable
        evaluation.falseAlternatives = alternatives
        return evaluation
    }

    /// What made the deciding part of a false rule false, in a few words: the keys a
    /// `hasChildren([...])` missed (`missing 'body'`), the two values a comparison compared
    /// (`'alice' === 'bob'`), or what a method was called on (`newData = snapshot /a = 5`);
    /// nil when there is nothing to add.
    static func falseDetail(_ node: Expression, _ expr: CheckedExpression, _ file: SourceFile,
                            _ recorded: [Int32: String], _ stored: [Int32: DataNode?]) -> String? {
        let width = ExplanationFormat.headlineValueWidth
        func value(_ e: Expression) -> String? {
            if let v = recorded[Int32(e.id)] { return v }
            switch e.kind {
            case .string(let s): return Value.quote(s)
            case .number(let n): return JSNumberFormatter.string(n)
            case .boolean(let b): return b ? "true" : "false"
            case .null: return "null"
            default: return nil
            }
        }
        switch node.kind {
        case .binary(let op, let left, let right, _):
            guard let l = value(left), let r = value(right) else { return nil }
            return "\(ExplanationFormat.clip(l, width)) \(op.rawValue) \(ExplanationFormat.clip(r, width))"
        case .call(let callee, let arguments):
            guard case .member(let object, let name, _) = callee.kind else { return nil }
            if name == "hasChildren", let list = arguments.first, case .array(let items) = list.kind,
               let here = stored[Int32(object.id)] {
                // The names as `hasChildren` reads them: a name with slashes is a path.
                var missing: [String] = []
                for item in items {
                    guard case .string(let key) = item.kind else { return nil }
                    let keys = key.split(separator: "/").map(String.init)
                    if keys.isEmpty || here?.descendant(keys) == nil { missing.append(Value.quote(key, limit: width)) }
                }
                if !missing.isEmpty { return "missing " + missing.joined(separator: ", ") }
            }
            guard let v = value(object) else { return nil }
            return "\(ExplanationFormat.clip(oneLine(file.text(of: expr.fileRange(of: object))), width)) = \(v)"
        default:
            return nil
        }
    }

    private static func collect(_ e: Expression, into out: inout [Expression]) {
        out.append(e)
        switch e.kind {
        case .member(let o, _, _): collect(o, into: &out)
        case .index(let o, let i): collect(o, into: &out); collect(i, into: &out)
        case .call(let c, let args):
            collect(c, into: &out)
            for a in args { collect(a, into: &out) }
        case .unary(_, let x): collect(x, into: &out)
        case .binary(_, let l, let r, _): collect(l, into: &out); collect(r, into: &out)
        case .logical(_, let xs): for x in xs { collect(x, into: &out) }
        case .conditional(let c, let a, let b): collect(c, into: &out); collect(a, into: &out); collect(b, into: &out)
        case .array(let xs): for x in xs { collect(x, into: &out) }
        default: break
        }
    }

    /// The sub-expression that made a false rule false: down `&&` to its first false operand,
    /// down `||` to its first alternative, down `?:` to the branch taken, stopping at anything
    /// else (a comparison, a call, a negation).
    ///
    /// `strict` (for redacted explanations, where withheld values are unknown): down `&&` only
    /// through operands known to be true, to the first known false one, or to the last one when
    /// all before it were true (it must then be false); at an operand whose value is withheld,
    /// the whole `&&` is the part (which operand was false would tell what the withheld one was).
    ///
    /// `stopAtOr`: stop at the first `||` on that way and return it (its alternatives are then
    /// all false, and are shown one by one: see ``falseAlternatives(_:_:strict:)``).
    static func decidingFalse(_ node: Expression, _ values: [Int32: String], known: Bool = false, strict: Bool = false,
                              stopAtOr: Bool = false) -> Expression? {
        guard known || truth(node, values) == false else { return nil }
        switch node.kind {
        case .logical(.and, let operands) where strict:
            for (i, operand) in operands.enumerated() {
                switch truth(operand, values) {
                case true?: continue
                case false?: return decidingFalse(operand, values, strict: true, stopAtOr: stopAtOr) ?? operand
                case nil:
                    return i == operands.count - 1
                        ? decidingFalse(operand, values, known: true, strict: true, stopAtOr: stopAtOr) ?? operand : node
                }
            }
            return node
        case .logical(.and, let operands):
            guard let first = operands.first(where: { truth($0, values) == false }) else { return node }
            return decidingFalse(first, values, stopAtOr: stopAtOr) ?? first
        case .logical(.or, let operands):
            if stopAtOr { return node }
            guard let first = operands.first else { return node }
            return decidingFalse(first, values, known: strict, strict: strict) ?? first
        case .conditional(let condition, let yes, let no):
            guard let taken = truth(condition, values) else { return node }
            return decidingFalse(taken ? yes : no, values, known: strict, strict: strict, stopAtOr: stopAtOr) ?? node
        default:
            return node
        }
    }

    /// When the way down a false rule to the part that decided (see ``decidingFalse``) meets an
    /// `||`, every one of its alternatives, each followed down to its own deciding part (an
    /// alternative that is itself an `||` gives its own alternatives, in order); empty when no
    /// `||` decided. A false `||` evaluated all its alternatives and each was false, so each is
    /// known false even in a redacted explanation (which then withholds their values).
    static func falseAlternatives(_ root: Expression, _ values: [Int32: String], strict: Bool) -> [Expression] {
        guard let or = decidingFalse(root, values, known: true, strict: strict, stopAtOr: true),
              case .logical(.or, let operands) = or.kind else { return [] }
        var out: [Expression] = []
        func add(_ operands: [Expression]) {
            for operand in operands {
                let part = decidingFalse(operand, values, known: true, strict: strict, stopAtOr: true) ?? operand
                if case .logical(.or, let inner) = part.kind { add(inner) } else { out.append(part) }
            }
        }
        add(operands)
        return out
    }

    /// A sub-expression's boolean value as evaluated: recorded by the tracer, or (for `&&`,
    /// `||`, `!` and `?:`, which have no instruction of their own) derived from its operands;
    /// nil when unknown or not a boolean.
    static func truth(_ node: Expression, _ values: [Int32: String]) -> Bool? {
        if let v = values[Int32(node.id)] { return v == "true" ? true : (v == "false" ? false : nil) }
        switch node.kind {
        case .logical(.and, let operands):
            var all = true
            for o in operands {
                switch truth(o, values) {
                case false?: return false
                case nil: all = false
                default: break
                }
            }
            return all ? true : nil
        case .logical(.or, let operands):
            var all = true
            for o in operands {
                switch truth(o, values) {
                case true?: return true
                case nil: all = false
                default: break
                }
            }
            return all ? false : nil
        case .unary(.not, let operand):
            return truth(operand, values).map { !$0 }
        case .conditional(let condition, let yes, let no):
            guard let c = truth(condition, values) else { return nil }
            return truth(c ? yes : no, values)
        default:
            return nil
        }
    }

    /// The wildcard names on a rule's path, outermost first.
    private static func wildcardNames(_ ruleset: CompiledRuleset, _ rule: CompiledRule) -> [String] {
        rule.rulePath.split(separator: "/").filter { $0.hasPrefix("$") }.map(String.init)
    }

    private static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: " \t") }.joined(separator: " ")
    }

    // MARK: - Results

    /// `title` is only built when explaining: a plain decision must not pay for the text.
    // Mutating, as every caller is: a non-mutating method called from a mutating one gets a
    // copy of the whole evaluator (every array and table retained, then released).
    /// A budget that ran out decides, unless the operation was denied before it did (as the
    /// decision without an explanation stops there); `root` is then the tree before a write
    /// (a write is not allowed once the budget has run out).
    // Inlined, so that a plain decision never materializes the title's closure.
    @inline(__always)
    private mutating func finish(_ title: @autoclosure () -> String, _ allowed: Bool, _ root: DataNode?, _ reason: DenialReason?) -> Decision {
        if exhaustion != nil && !deniedBeforeExhaustion { return finishExhausted(title(), root) }
        if !explain { return Decision(allowed: allowed, newRoot: root, denial: allowed ? nil : reason, explanation: nil) }
        var explanation = Explanation(operation: title(), allowed: allowed, rejection: nil, evaluations: log)
        explanation.omittedEvaluations = recording?.omittedEvaluations ?? 0
        if !allowed || decisive.map({ log.indices.contains($0) && log[$0].outcome.isTrue }) == true {
            explanation.decisiveIndex = decisive
        }
        if redaction != nil { explanation.redact(denied: !allowed) }
        if !allowed && deniedAtNode >= 0 && explanation.decisive?.kind != .validate {
            explanation.rulesNotConsulted = rulesBelow(deniedAtNode, kind: readDepth >= 0 || explanation.operation.hasPrefix("read ") ? .read : .write)
        }
        return Decision(allowed: allowed, newRoot: root, denial: allowed ? nil : reason, explanation: explanation)
    }

    /// The `.read` or `.write` rules below rule node `node` (not its own), shallowest first: at
    /// most ``Explanation/rulesNotConsultedShown`` of them, then `and more` if there are more.
    private func rulesBelow(_ node: Int32, kind: RuleKind) -> [String] {
        var found: [String] = []
        var queue: [Int32] = []
        func children(_ index: Int32) {
            let n = ruleset.nodes[Int(index)]
            for key in n.literals.keys.sorted() { queue.append(n.literals[key]!) }
            if n.wildcard >= 0 { queue.append(n.wildcard) }
        }
        children(node)
        var next = 0
        // Bounded: a few rules are named, a few thousand nodes looked at.
        while next < queue.count && next < 4096 {
            let n = ruleset.nodes[Int(queue[next])]
            next += 1
            let rule = kind == .read ? n.read : n.write
            if rule >= 0 {
                if found.count == Explanation.rulesNotConsultedShown { found.append("and more"); break }
                found.append(ruleset.rules[Int(rule)].rulePath)
            }
            children(queue[next - 1])
        }
        return found
    }

    /// ``finish(_:_:_:_:)`` for a decision whose budget ran out: denied, for that reason.
    @inline(never)
    private mutating func finishExhausted(_ title: String, _ root: DataNode?) -> Decision {
        let reason = DenialReason.text(exhaustion ?? "evaluation budget exhausted")
        guard explain else { return Decision(allowed: false, newRoot: root, denial: reason, explanation: nil, exhausted: true) }
        decisive = logIndex(ofEvaluation: exhaustedEvaluation)
        var explanation = Explanation(operation: title, allowed: false, rejection: nil, evaluations: log)
        explanation.omittedEvaluations = recording?.omittedEvaluations ?? 0
        explanation.decisiveIndex = decisive
        if redaction != nil { explanation.redact(denied: true) }
        return Decision(allowed: false, newRoot: root, denial: reason, explanation: explanation, exhausted: true)
    }

    private mutating func reject(_ title: @autoclosure () -> String, _ root: DataNode?, _ why: String) -> Decision {
        var explanation = explain ? Explanation(operation: title(), allowed: false, rejection: why, evaluations: log) : nil
        explanation?.omittedEvaluations = recording?.omittedEvaluations ?? 0
        if redaction != nil { explanation?.redact(denied: true) }
        return Decision(allowed: false, newRoot: root, reason: why, explanation: explanation, isRejected: true)
    }

    private func display(_ keys: [String]) -> String { "/" + keys.joined(separator: "/") }

    /// The first pair of paths where one is a prefix of (or equal to) the other.
    ///
    /// Keys compare by their bytes (``KeyOrder``), as the database stores them: Swift's `String`
    /// comparison would call "é" and "e\u{301}" the same key.
    static func overlap(_ entries: [([String], DataInput)]) -> ([String], [String])? {
        // A few paths (most updates) are compared pair by pair, without sorting; only when two
        // overlap is the sorted pass below run, to name the same pair for any number of paths.
        if entries.count <= 16 {
            var any = false
            for i in entries.indices where !any {
                for j in entries.indices where j > i {
                    let a = DataPath(keys: entries[i].0), b = DataPath(keys: entries[j].0)
                    if a.isPrefix(of: b) || b.isPrefix(of: a) { any = true; break }
                }
            }
            if !any { return nil }
        }
        let sorted = entries.map(\.0).sorted { $0.lexicographicallyPrecedes($1) { KeyOrder.compare($0, $1) < 0 } }
        for i in sorted.indices.dropFirst() {
            let a = sorted[i - 1], b = sorted[i]
            if DataPath(keys: a).isPrefix(of: DataPath(keys: b)) { return (a, b) }
        }
        return nil
    }

    /// Whether one of the `validated` entries has the ancestor of `keys` at `depth` on its own
    /// path (the same keys by their bytes), so its `.validate` rule has already run.
    static func validatedBefore(depth: Int, of keys: [String], by validated: [Int], _ entries: [([String], DataInput)]) -> Bool {
        for j in validated {
            let other = entries[j].0
            guard depth <= other.count, depth <= keys.count else { continue }
            var same = true
            var i = 0
            while i < depth {
                if !KeyOrder.sameBytes(other[i], keys[i]) { same = false; break }
                i += 1
            }
            if same { return true }
        }
        return false
    }

    /// The number of levels below a node (0 for a leaf), counting no further than `limit`.
    static func height(_ node: DataNode, limit: Int) -> Int {
        if node.value != nil || limit <= 0 { return 0 }
        var h = 0
        node.forEachChild { _, c in
            if h < limit { h = max(h, 1 + height(c, limit: limit - 1)) }
        }
        return h
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}

extension Evaluator: Sendable where T: Sendable {}
