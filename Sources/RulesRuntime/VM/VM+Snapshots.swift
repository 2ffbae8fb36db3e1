import RulesCompiler

/// The VM's snapshot methods: `val()`, `exists()`, the type tests, `getPriority()`, `parent()`,
/// `child()`, `hasChild()`, `hasChildren()`, and their fused forms.
extension VM {
    /// A method without arguments called on `v`, which must be a snapshot.
    @inline(__always)
    static func snapshotMethod(_ op: Opcode, _ v: Value, _ snaps: inout SnapshotTable) throws(OperatorError) -> Value {
        guard case .snapshot(let si) = v else { throw notOnSnapshot(op, v) }
        if case .parent = op {
            // parent() needs only the location, not what is stored there.
            let parent = snaps[si].parent
            guard parent >= 0 else { throw OperatorError("Cannot call parent() on the root.") }
            return .snapshot(parent)
        }
        return query(op, si, &snaps)
    }

    /// `child('path')` or `hasChild('path')` with the path written in the rules (string
    /// `pathIndex`). A single key comes with its rank when the engine's `tables` know it, and
    /// `hasChild` then needs no entry.
    @inline(__always)
    static func childConst(
        _ op: Opcode, _ v: Value, _ pathIndex: Int32, at pc: Int, _ rs: CompiledRuleset, _ tables: EngineTables?,
        _ snaps: inout SnapshotTable
    ) throws(OperatorError) -> Value {
        guard case .snapshot(let si) = v else { throw notOnSnapshot(op, v) }
        let keys = rs.pathKeys[Int(pathIndex)]
        if let rank = rank(of: keys, at: pc, tables) {
            if case .hasChildConst = op { return .bool(snaps.hasChild(of: si, key: keys[0], rank: rank)) }
            return .snapshot(snaps.addChild(of: si, key: keys[0], rank: rank))
        }
        let c = snaps.addDescendant(of: si, keys: keys)
        if case .hasChildConst = op { return .bool(snaps.exists(c)) }
        return .snapshot(c)
    }

    /// ``Opcode/childConstQuery``: `child('key')` and the query after it (at `pc + 1`), for one
    /// key of known rank; `pc` then moves onto the query. Otherwise only the child, as
    /// ``Opcode/childConst`` gives it, and the query runs next.
    @inline(__always)
    static func childConstQuery(
        _ v: Value, _ pathIndex: Int32, at pc: inout Int, _ code: UnsafeBufferPointer<Instruction>,
        _ rs: CompiledRuleset, _ tables: EngineTables?, _ snaps: inout SnapshotTable
    ) throws(OperatorError) -> Value {
        guard case .snapshot(let si) = v else { throw notOnSnapshot(.childConst, v) }
        let keys = rs.pathKeys[Int(pathIndex)]
        if let rank = rank(of: keys, at: pc, tables) {
            let c = snaps.addChild(of: si, key: keys[0], rank: rank)
            pc += 1
            return query(code[pc].opcode, c, &snaps)
        }
        return .snapshot(snaps.addDescendant(of: si, keys: keys))
    }

    /// The rank of a constant path's one key, from the engine's `tables` for the instruction at
    /// `pc`; nil for a path of several keys, without tables, or for a key of unknown rank.
    @inline(__always)
    static func rank(of keys: [String], at pc: Int, _ tables: EngineTables?) -> KeyRank? {
        guard let tables, keys.count == 1, case let rank = tables.keyRanks[pc], rank != KeyOrder.unknownRank else { return nil }
        return rank
    }

    /// ``Opcode/dataQuery`` and ``Opcode/newDataQuery``: the query at `pc + 1` on the snapshot
    /// at `entry` (and `pc` moves onto it); null when there is no such snapshot (the query then
    /// runs next, on null, and fails as it should).
    @inline(__always)
    static func query(at pc: inout Int, of entry: Int32, _ code: UnsafeBufferPointer<Instruction>, _ snaps: inout SnapshotTable) -> Value {
        guard entry >= 0 else { return .null }
        pc += 1
        return query(code[pc].opcode, entry, &snaps)
    }

    /// `child(path)` or `hasChild(path)` with a computed path.
    @inline(__always)
    static func child(_ op: Opcode, _ v: Value, _ p: Value, _ snaps: inout SnapshotTable, _ steps: inout Int) throws(OperatorError) -> Value {
        guard case .snapshot(let si) = v else { throw notOnSnapshot(op, v) }
        guard case .string(let path) = p else {
            throw OperatorError("\(methodName(op))() expects a string argument, got \(p.typeName).")
        }
        steps &-= path.utf8.count >> 6
        let c = snaps.addDescendant(of: si, path: path)
        if case .child = op { return .snapshot(c) }
        return .bool(snaps.exists(c))
    }

    /// `hasChildren([names])`: the receiver and the `n` names are on the stack, read in place
    /// and then dropped together. Names that are constants of the rules come with their ranks
    /// (see ``EngineTables``).
    @inline(__always)
    static func hasChildren(
        _ n: Int, at pc: Int, _ stack: inout VMStack, _ tables: EngineTables?, _ snaps: inout SnapshotTable
    ) throws(OperatorError) -> Value {
        guard n >= 0, stack.count >= n + 1 else { throw VMStack.empty() }
        let base = stack.count - n
        guard case .snapshot(let si) = stack.base[base - 1] else { throw notOnSnapshot(.hasAnyChildren, stack.base[base - 1]) }
        for k in base..<stack.count {
            guard case .string = stack.base[k] else { throw OperatorError("hasChildren() expects strings, got \(stack.base[k].typeName).") }
        }
        let constant = tables?.constantNames[pc] == true
        var all = true
        var k = base
        while all && k < stack.count {
            if case .string(let path) = stack.base[k] {
                if let tables, constant, case let rank = tables.keyRanks[pc - n + (k - base)], rank != KeyOrder.unknownRank {
                    all = snaps.hasChild(of: si, key: path, rank: rank)
                } else {
                    all = snaps.exists(snaps.addDescendant(of: si, path: path))
                }
            }
            k += 1
        }
        stack.truncate(to: base - 1)
        return .bool(all)
    }

    /// The value of a snapshot query (``Opcode/isSnapshotQuery``) on the snapshot at entry `si`.
    @inline(__always)
    static func query(_ op: Opcode, _ si: Int32, _ snaps: inout SnapshotTable) -> Value {
        // exists() needs no node: an overlay entry answers without building one.
        if case .exists = op { return .bool(snaps.exists(si)) }
        let node = snaps.node(si)
        switch op {
        case .val:
            guard let node else { return .null }
            return node.value.map(Value.init) ?? .object
        case .getPriority: return node?.priority.map(Value.init) ?? .null
        case .isNumber: if case .number = node?.value { return .bool(true) } else { return .bool(false) }
        case .isString: if case .string = node?.value { return .bool(true) } else { return .bool(false) }
        case .isBoolean: if case .bool = node?.value { return .bool(true) } else { return .bool(false) }
        default: return .bool(node?.hasChildren ?? false)
        }
    }

    @inline(never)
    static func notOnSnapshot(_ op: Opcode, _ v: Value) -> OperatorError {
        OperatorError("Cannot call \(methodName(op))() on \(v.typeName).")
    }

    /// The method's name as the rules write it.
    static func methodName(_ op: Opcode) -> String {
        switch op {
        case .childConst, .childConstQuery: "child"
        case .hasChildConst: "hasChild"
        case .hasAnyChildren: "hasChildren"
        default: op.mnemonic
        }
    }
}
