import RulesCompiler

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the engine's hot loops need from a ``CompiledRuleset``, laid out as plain values:
/// reading a ``CompiledNode`` or ``CompiledRule`` out of its array copies (retains and
/// releases) its strings, dictionary and expression, which dominated a read decision.
/// Built once per engine; immutable.
final class EngineTables: Sendable {
    /// One rule tree node.
    struct Node: Sendable {
        var read: Int32, write: Int32, validate: Int32, wildcard: Int32
        var validatesBelow: Bool
        /// The node's literal children: `literalKeys[literalStart ..< literalStart + literalCount]`.
        var literalStart: Int32, literalCount: Int32
    }

    /// One rule.
    struct Rule: Sendable {
        /// 1 always true, 0 always false, -1 run the code.
        var constant: Int8
        var codeStart: Int, codeEnd: Int
    }

    /// Nodes with more literal children than this use the compiled node's dictionary.
    static let linearLimit = 8

    let nodes: [Node]
    let rules: [Rule]
    let literalKeys: [String]
    let literalTargets: [Int32]

    init(_ ruleset: CompiledRuleset) {
        var nodes: [Node] = []
        var keys: [String] = []
        var targets: [Int32] = []
        nodes.reserveCapacity(ruleset.nodes.count)
        for n in ruleset.nodes {
            let start = Int32(keys.count)
            // Sorted by key bytes only so the table is the same on every run.
            for (key, target) in n.literals.sorted(by: { KeyOrder.compare($0.key, $1.key) < 0 }) {
                keys.append(key)
                targets.append(target)
            }
            nodes.append(Node(
                read: n.read, write: n.write, validate: n.validate, wildcard: n.wildcard, validatesBelow: n.validatesBelow,
                literalStart: start, literalCount: Int32(keys.count) - start))
        }
        self.nodes = nodes
        self.literalKeys = keys
        self.literalTargets = targets
        self.rules = ruleset.rules.map { r in
            Rule(constant: r.constant.map { $0 ? 1 : 0 } ?? -1, codeStart: r.codeStart, codeEnd: r.codeEnd)
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
            let hit: Int32? = key.withUTF8 { k in
                var i = Int(info.literalStart)
                let end = i + Int(info.literalCount)
                while i < end {
                    if Self.equal(literalKeys[i], k) { return literalTargets[i] }
                    i += 1
                }
                return nil
            }
            if let hit { return (hit, false) }
        }
        if info.wildcard >= 0 { return (info.wildcard, true) }
        return nil
    }

    @inline(__always)
    private static func equal(_ stored: String, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.utf8.count == key.count else { return false }
        // Literal keys are native strings (built by the compiler), so this does not copy.
        return stored.utf8.withContiguousStorageIfAvailable { s in
            s.isEmpty || memcmp(s.baseAddress!, key.baseAddress!, s.count) == 0
        } ?? stored.utf8.elementsEqual(key)
    }
}
