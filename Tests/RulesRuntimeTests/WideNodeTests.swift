import RulesTestSupport
import Testing

@testable import RulesRuntime

/// Objects with more children than fit in one child-tree leaf get inner levels above their
/// leaves (``ChildTree``); they must behave exactly like one-leaf ones.
@Suite struct WideNodeTests {
    static func leaf(_ n: Int) -> DataNode { DataNode(leaf: .number(Double(n))) }

    /// Random inserts, replacements and removals on one object, checked against a model.
    @Test(arguments: [1 as UInt64, 2, 3])
    func randomEditsMatchAModel(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        // Integer-like and text keys, so KeyOrder's two classes mix.
        let keyPool = (0..<600).map { i in i % 3 == 0 ? String(i) : "k\(i)" }
        var model: [String: Int] = [:]
        var node: DataNode? = nil
        var versions: [(DataNode?, [String: Int])] = []
        for step in 0..<3_000 {
            let key = random.pick(keyPool)
            if random.below(4) == 0 {
                model[key] = nil
                node = DataNode.replacing(node, at: DataPath(keys: [key]), with: nil)
            } else {
                model[key] = step
                node = DataNode.replacing(node, at: DataPath(keys: [key]), with: Self.leaf(step))
            }
            if step % 500 == 0 { versions.append((node, model)) }
        }
        versions.append((node, model))
        // Every version still reads as it did: updates never change an older tree.
        for (version, expected) in versions {
            let expectedKeys = expected.keys.sorted { KeyOrder.compare($0, $1) < 0 }
            #expect((version?.keys ?? []) == expectedKeys)
            #expect((version?.childCount ?? 0) == expected.count)
            #expect((version?.count ?? 0) == (expected.isEmpty ? 0 : expected.count + 1))
            for key in keyPool {
                #expect(version?.child(key)?.value == expected[key].map { .number(Double($0)) })
            }
            var seen: [String] = []
            version?.forEachChild { k, _ in seen.append(k) }
            #expect(seen == expectedKeys)
        }
    }

    @Test func wideObjectsCompareAndExportLikeNarrowOnes() throws {
        let pairs = (0..<1_000).map { ("c\($0)", Self.leaf($0)) }
        let wide = try #require(DataNode.object(pairs))
        #expect(wide.childCount == 1_000)
        #expect(wide.count == 1_001)
        // The same content built one child at a time.
        var built: DataNode? = nil
        for (k, v) in pairs.reversed() { built = built?.settingChild(k, to: v) ?? DataNode.object([(k, v)]) }
        #expect(try #require(built).isEqual(to: wide))
        #expect(built?.exportJSON() == wide.exportJSON())
        #expect(wide.exportJSON().hasPrefix(#"{"c0":0,"c1":1,"c10":10,"#))
        // Removing all but a few children shrinks it back to one leaf, with the same answers.
        var shrinking: DataNode? = wide
        for i in 3..<1_000 { shrinking = shrinking?.settingChild("c\(i)", to: nil) }
        #expect(shrinking?.keys == ["c0", "c1", "c2"])
        #expect(shrinking?.count == 4)
        #expect(shrinking?.childTree?.isLeaf == true)
        for i in 0..<1_000 { shrinking = shrinking?.settingChild("c\(i)", to: nil) }
        #expect(shrinking == nil)
    }

    @Test func writingIntoAWideObjectSharesUntouchedChildren() throws {
        let pairs = (0..<5_000).map { ("p\($0)", DataNode.object([("v", Self.leaf($0))])!) }
        let old = try #require(DataNode.object(pairs))
        let new = try #require(DataNode.replacing(old, at: DataPath(keys: ["p42", "v"]), with: Self.leaf(-1)))
        #expect(new.descendant(["p42", "v"])?.value == .number(-1))
        #expect(old.descendant(["p42", "v"])?.value == .number(42))
        #expect(new.child("p4999") === old.child("p4999"))
        #expect(new.count == old.count)
        // Setting the same node changes nothing.
        #expect(DataNode.replacing(old, at: DataPath(keys: ["p7"]), with: old.child("p7")) === old)
        #expect(DataNode.replacing(old, at: DataPath(keys: ["missing"]), with: nil) === old)
    }

    /// The B+ tree's own invariants, checked after every step of inserts and removals over
    /// thousands of keys (three levels, leaf and inner splits, subtrees emptied): slots in
    /// strictly increasing key order with their ranks, an inner slot keyed by its subtree's
    /// first key, node sizes within bounds, counts that add up, and leaves all at one depth.
    @Test(arguments: [11 as UInt64, 12])
    func childTreesKeepTheirInvariants(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let keyPool = (0..<4_000).map { i in i % 5 == 0 ? String(i) : "-NxAbCdEfGhIjKlM\(i)" }
        var node: DataNode? = nil
        var present = Set<String>()
        for step in 0..<12_000 {
            let key = random.pick(keyPool)
            // Mostly inserts at first, then mostly removals, so the tree grows and shrinks.
            let removing = random.below(100) < (step < 7_000 ? 20 : 80)
            node = DataNode.replacing(node, at: DataPath(keys: [key]), with: removing ? nil : Self.leaf(step))
            if removing { present.remove(key) } else { present.insert(key) }
            if step % 97 == 0 || step == 11_999 {
                guard let tree = node?.childTree else { #expect(present.isEmpty); continue }
                var leafDepths = Set<Int>()
                let (entries, nodes) = try Self.check(tree, depth: 0, isRoot: true, leafDepths: &leafDepths)
                #expect(entries == present.count)
                #expect(nodes + 1 == node?.count)
                #expect(leafDepths.count == 1, "leaves at depths \(leafDepths.sorted())")
            }
        }
    }

    /// Checks one tree node and the nodes below; returns the children and data nodes below.
    static func check(_ tree: ChildTree, depth: Int, isRoot: Bool, leafDepths: inout Set<Int>) throws -> (Int, Int) {
        let n = tree.slotCount
        try #require(n >= 1)
        #expect(n <= (tree.isLeaf ? ChildTree.maxLeaf : ChildTree.maxInner))
        if isRoot && !tree.isLeaf {
            #expect(n >= 2, "an inner root with one subtree")
            #expect(tree.entryCount > ChildTree.maxLeaf / 2, "an inner root over children that fit in half a leaf")
        }
        for i in 0..<n {
            #expect(tree.rank(at: i) == KeyOrder.rank(tree.key(at: i)))
            if i > 0 { #expect(KeyOrder.compare(tree.key(at: i - 1), tree.key(at: i)) < 0) }
        }
        if tree.isLeaf {
            leafDepths.insert(depth)
            #expect(tree.entryCount == n)
            let nodes = (0..<n).reduce(0) { $0 + tree.node(at: $1).count }
            #expect(tree.nodeCount == nodes)
            return (n, nodes)
        }
        var entries = 0, nodes = 0
        for i in 0..<n {
            let sub = tree.sub(at: i)
            #expect(KeyOrder.compare(sub.key(at: 0), tree.key(at: i)) == 0, "an inner slot's key is not its subtree's first")
            let (e, d) = try check(sub, depth: depth + 1, isRoot: false, leafDepths: &leafDepths)
            entries += e
            nodes += d
        }
        #expect(tree.entryCount == entries)
        #expect(tree.nodeCount == nodes)
        return (entries, nodes)
    }

    /// A write copies its path following where the look-up found each child (the trail), not
    /// searching again. Against the plain path copy, which searches: the same tree for random
    /// replacements, removals and inserts two levels down in wide objects (three tree levels,
    /// splits and emptied leaves), with the tree's invariants kept.
    @Test(arguments: [21 as UInt64, 22])
    func pathCopiesFollowingTheTrailMatchThePlainCopy(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let outer = (0..<40).map { "o\($0)" }
        let inner = (0..<3_000).map { i in i % 4 == 0 ? String(i) : "-NxAbCdEfGhIjKl\(i)" }
        var root: DataNode? = DataNode.object(outer.prefix(3).map { o in
            (o, DataNode.object(inner.prefix(1_500).map { ($0, Self.leaf(0)) })!)
        })
        var old: [DataNode?] = [], new: [DataNode?] = [], trails: [Int32] = [], ranks: [KeyRank] = []
        for step in 1...4_000 {
            let keys = [random.pick(outer), random.pick(inner)]
            let node: DataNode? = random.below(3) == 0 ? nil : Self.leaf(step)
            DataNode.pathNodes(root, keys, into: &old, trails: &trails, ranks: &ranks)
            let followed = DataNode.replacing(root, along: old, keys, with: node, newPath: &new, trails: trails)
            let plain = DataNode.replacing(root, at: DataPath(keys: keys), with: node)
            if let followed, let plain {
                #expect(followed.isEqual(to: plain), "step \(step): \(keys)")
            } else {
                #expect(followed == nil && plain == nil, "step \(step): \(keys)")
            }
            root = followed
        }
        var depths = Set<Int>()
        for o in outer {
            guard let tree = root?.child(o)?.childTree else { continue }
            _ = try Self.check(tree, depth: 0, isRoot: true, leafDepths: &depths)
            #expect(depths.count == 1)
            depths = []
        }
    }
}
