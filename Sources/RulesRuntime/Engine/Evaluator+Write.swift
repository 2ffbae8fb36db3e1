import RulesCompiler
import RulesSyntax

/// Writes: permission along each written path, then validation of the new tree (never on null).
extension Evaluator {
    /// Splits a plainly valid path into `singleKeys` and makes `singleEntry` the one write of
    /// `value` there, both in the storage kept from the last decision (no arrays allocated);
    /// false for any other path, which the validating parser then reports or normalises.
    mutating func single(_ path: String, _ value: DataInput) -> Bool {
        // Emptied first, so that `singleKeys` is not shared with the last entry and is written in
        // place.
        singleEntry.clearKeepingCapacity()
        guard DataPath.splitValidKeys(path, into: &singleKeys) else { return false }
        singleEntry.append((singleKeys, value))
        return true
    }

    /// `path` is the operation's path as written, when `entries` is the one write there: a
    /// denial then names it without building the text (see ``DenialReason``).
    mutating func write(_ title: @autoclosure () -> String, _ entries: [([String], DataInput)], _ oldRoot: DataNode?,
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
    mutating func writeOverlaid(_ keys: [String], _ input: DataInput, _ oldRoot: DataNode?, path: String) -> Decision {
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
        // A caller that applies the write to its own tree takes the written node instead (see
        // `applyAndClear`).
        if defersWrite {
            deferredWrite = .some(snaps.overlay.written())
            return Decision(allowed: true, newRoot: nil, denial: nil, explanation: nil)
        }
        // The new tree is built (what is left of it) only now that the write is allowed.
        return Decision(allowed: true, newRoot: snaps.overlay.node(at: 0), denial: nil, explanation: nil)
    }

    /// Checks the value of a single write at `keys` (its keys, sizes and depth, before any rule
    /// runs), looks up the path before the write once, and describes the write in the overlay;
    /// nil, or why the write is rejected. A leaf is made only when a rule reads it, or once the
    /// write is allowed; it adds no level.
    @inline(__always)
    mutating func beginOverlay(_ keys: [String], _ input: DataInput, _ oldRoot: DataNode?) -> String? {
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
    enum PathEntries {
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
    struct PermissionWalk {
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
    mutating func walkPermission(_ keys: [String], from oldRoot: Int32, _ newRoot: Int32, _ pathEntries: PathEntries) -> PermissionWalk {
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
    mutating func validateChain(_ keys: [String], path: String?, _ entries: [([String], DataInput)], _ denial: inout DenialReason?) {
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
    static func tooDeep(_ keys: [String]) -> String {
        "Writing at /\(keys.joined(separator: "/")) would store data more than \(DataLimits.maxDepth - 1) levels deep."
    }

    /// Validates every non-null descendant of a written location that has rules, depth first.
    /// Returns false on the first failure (and keeps going only when explaining).
    mutating func validateSubtree(_ nodeIndex: Int32, _ oldEntry: Int32, _ newEntry: Int32, _ denial: inout DenialReason?) -> Bool {
        guard let newNode = snaps.node(newEntry), newNode.value == nil else { return true }
        var ok = true
        // Children in order, straight from the node's child tree (no arrays of keys and nodes
        // built per object). After a failure, unless explaining, the rest are skipped.
        newNode.forEachChild { key, newChild in
            if !ok && !exhaustive { return }
            guard let (childIndex, isWildcard) = tables.child(of: nodeIndex, key, in: ruleset) else { return }
            guard tables.nodes[Int(childIndex)].validatesBelow else { return }
            let validateRule = tables.nodes[Int(childIndex)].validate
            // What a child's check needed is forgotten once it is checked (what a denial or an
            // explanation says of it is written out as it is found): a write of millions of
            // children keeps the table at the size of one child's check, passing or failing.
            // Only when the budget ran out is it kept, for the explanation's deciding evaluation.
            let mark = snaps.mark()
            defer {
                if exhaustion == nil {
                    if let recording, let p = recording.pending, p.dataEntry >= mark.firstEntry { recording.pending = nil }
                    snaps.rollback(mark)
                } else {
                    snaps.keep(mark)
                }
            }
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
}
