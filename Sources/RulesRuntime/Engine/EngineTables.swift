import RulesCompiler

/// What the engine's hot loops need from a ``CompiledRuleset``, laid out as plain values:
/// reading a ``CompiledNode`` or ``CompiledRule`` out of its array copies (retains and
/// releases) its strings, dictionary and expression, which dominated a read decision.
/// Built once per engine; immutable.
final class EngineTables: Sendable {
    /// One rule tree node.
    struct Node: Sendable {
        var read: Int32, write: Int32, validate: Int32, wildcard: Int32
        var validatesBelow: Bool
        /// The node's literal children: literal keys `literalStart ..< literalStart + literalCount`.
        var literalStart: Int32, literalCount: Int32
    }

    /// One rule.
    struct Rule: Sendable {
        /// 1 always true, 0 always false, -1 run the code.
        var constant: Int8
        var codeStart: Int, codeEnd: Int
        /// Whether the code loads `data`, `newData` or a `$` variable: only then must a read
        /// give the rule its location's snapshot and the wildcard keys (`auth != null` needs
        /// neither, so a read it grants makes no key strings at all).
        var readsLocation: Bool
        /// Whether the code loads `root`, `data` or `newData` (or a `$` variable): only then must
        /// a read enter the tree's root in the snapshot table.
        var readsSnapshots: Bool
        /// The rule's whole code is `auth != null` (1) or `auth == null` (0), the commonest rules
        /// there are, which an untraced evaluation answers without the VM; -1 otherwise.
        var authCheck: Int8
    }

    /// Nodes with more literal children than this use the compiled node's dictionary.
    static let linearLimit = 8

    let nodes: [Node]
    let rules: [Rule]
    /// Each node's literal children: the bytes of every literal key, in order (key `i` is
    /// `literalBytes[literalByteStarts[i] ..< literalByteStarts[i + 1]]`), and its target node.
    let literalBytes: [UInt8]
    let literalByteStarts: [Int]
    let literalTargets: [Int32]
    /// Per instruction: for a `pushString`, `childConst` or `hasChildConst` whose string is one
    /// key (not empty, no "/"), that key's ``KeyRank``, computed once here rather
    /// than at every look-up; ``KeyOrder/unknownRank`` otherwise.
    let keyRanks: [KeyRank]
    /// Per instruction: true for a `hasChildren` whose names are the string constants pushed
    /// by the instructions just before it, which no jump enters part-way (so their ranks in
    /// ``keyRanks`` apply to the values on the stack).
    let constantNames: [Bool]

    init(_ ruleset: CompiledRuleset) {
        var nodes: [Node] = []
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        var targets: [Int32] = []
        nodes.reserveCapacity(ruleset.nodes.count)
        for n in ruleset.nodes {
            let start = Int32(targets.count)
            // Sorted by key bytes only so the table is the same on every run.
            for (key, target) in n.literals.sorted(by: { KeyOrder.compare($0.key, $1.key) < 0 }) {
                bytes.append(contentsOf: key.utf8)
                starts.append(bytes.count)
                targets.append(target)
            }
            nodes.append(Node(
                read: n.read, write: n.write, validate: n.validate, wildcard: n.wildcard, validatesBelow: n.validatesBelow,
                literalStart: start, literalCount: Int32(targets.count) - start))
        }
        self.nodes = nodes
        self.literalBytes = bytes
        self.literalByteStarts = starts
        self.literalTargets = targets
        let code = ruleset.instructions
        (self.keyRanks, self.constantNames) = Self.constantKeys(code, ruleset.strings)
        self.rules = ruleset.rules.map { r in
            var readsLocation = false
            var readsRoot = false
            // An inconsistent ruleset (a range outside the code) is denied before any rule runs;
            // flag it as reading everything all the same.
            if r.codeStart < 0 || r.codeEnd > code.count || r.codeStart > r.codeEnd {
                readsLocation = true
            } else {
                for ins in code[r.codeStart..<r.codeEnd] {
                    switch ins.opcode {
                    case .loadData, .loadNewData, .loadWildcard: readsLocation = true
                    case .loadRoot: readsRoot = true
                    default: break
                    }
                }
            }
            return Rule(
                constant: r.constant.map { $0 ? 1 : 0 } ?? -1, codeStart: r.codeStart, codeEnd: r.codeEnd,
                readsLocation: readsLocation, readsSnapshots: readsLocation || readsRoot,
                authCheck: Self.authCheck(code, r.codeStart, r.codeEnd))
        }
    }

    /// ``keyRanks`` and ``constantNames`` for a ruleset's code.
    static func constantKeys(_ code: [Instruction], _ strings: [String]) -> (ranks: [KeyRank], names: [Bool]) {
        var ranks = [KeyRank](repeating: KeyOrder.unknownRank, count: code.count)
        var jumpedTo = [Bool](repeating: false, count: code.count + 1)
        for (pc, ins) in code.enumerated() {
            switch ins.opcode {
            case .pushString, .childConst, .hasChildConst:
                guard strings.indices.contains(Int(ins.operand)) else { continue }
                let s = strings[Int(ins.operand)]
                if !s.isEmpty && !s.utf8.contains(UInt8(ascii: "/")) { ranks[pc] = KeyOrder.rank(s) }
            case .jump, .jumpIfFalse, .jumpIfFalseOrPop, .jumpIfTrueOrPop:
                if ins.operand >= 0 && Int(ins.operand) < jumpedTo.count { jumpedTo[Int(ins.operand)] = true }
            default:
                break
            }
        }
        var names = [Bool](repeating: false, count: code.count)
        for (pc, ins) in code.enumerated() where ins.opcode == .hasChildren {
            let n = Int(ins.operand)
            guard n >= 1, n <= pc else { continue }
            var constant = true
            for k in (pc - n)..<pc where code[k].opcode != .pushString || (k > pc - n && jumpedTo[k]) { constant = false }
            names[pc] = constant && !jumpedTo[pc]
        }
        return (ranks, names)
    }

    /// 1 when `code[start ..< end]` is exactly `auth != null` (or `null != auth`), 0 when it is
    /// `auth == null`, -1 otherwise. Equality with null is strict, so the result depends only
    /// on whether there is a user.
    static func authCheck(_ code: [Instruction], _ start: Int, _ end: Int) -> Int8 {
        guard start >= 0, end == start + 4, end <= code.count, code[start + 3].opcode == .return else { return -1 }
        let a = code[start].opcode, b = code[start + 1].opcode
        guard (a == .loadAuth && b == .pushNull) || (a == .pushNull && b == .loadAuth) else { return -1 }
        switch code[start + 2].opcode {
        case .notEqual: return 1
        case .equal: return 0
        default: return -1
        }
    }

    /// The child node for a data key: the literal child whose key has the same bytes, else the
    /// wildcard (as ``CompiledNode/child(_:)``).
    @inline(__always)
    func child(of node: Int32, _ key: String, in ruleset: CompiledRuleset) -> (index: Int32, isWildcard: Bool)? {
        let info = nodes[Int(node)]
        if info.literalCount > Int32(Self.linearLimit) { return ruleset.nodes[Int(node)].child(key) }
        if info.literalCount > 0 {
            var key = key
            if let hit = key.withUTF8({ literalTarget(info, $0) }) { return (hit, false) }
        }
        return info.wildcard >= 0 ? (info.wildcard, true) : nil
    }

    /// ``child(of:_:in:)`` for a key given as the bytes `range` of `path` (a valid key),
    /// which makes a string only for a node with more than ``linearLimit`` literal children.
    @inline(__always)
    func child(of node: Int32, _ path: [UInt8], _ range: Range<Int>, in ruleset: CompiledRuleset) -> (index: Int32, isWildcard: Bool)? {
        let info = nodes[Int(node)]
        if info.literalCount > Int32(Self.linearLimit) {
            return ruleset.nodes[Int(node)].child(String(decoding: path[range], as: UTF8.self))
        }
        if let hit = literalTarget(info, path[range]) { return (hit, false) }
        return info.wildcard >= 0 ? (info.wildcard, true) : nil
    }

    /// The target of the literal child of `info` whose key has the bytes of `key`, or nil.
    @inline(__always)
    private func literalTarget<Key: RandomAccessCollection<UInt8>>(_ info: Node, _ key: Key) -> Int32? where Key.Index == Int {
        let length = key.count
        var i = Int(info.literalStart)
        let end = i + Int(info.literalCount)
        while i < end {
            let start = literalByteStarts[i]
            if literalByteStarts[i + 1] - start == length {
                var j = 0
                while j < length && literalBytes[start + j] == key[key.startIndex + j] { j += 1 }
                if j == length { return literalTargets[i] }
            }
            i += 1
        }
        return nil
    }
}
