import RulesRuntime
import RulesTestSupport
import Testing

/// `DataNode.replacing(_:entries:)` (a whole multi-path update at once) gives the same tree as
/// applying the entries one by one with `replacing(_:at:with:)`.
@Suite struct DataNodeBatchTests {
    static let base = try! DataNode.fromJSON(
        #"{"a": {"b": 1, "c": {"d": true}}, "leaf": {".value": "x", ".priority": 3}, "only": {"one": 1}, "n": 5}"#)

    static func sequential(_ root: DataNode?, _ entries: [(keys: [String], node: DataNode?)]) -> DataNode? {
        var out = root
        for e in entries { out = DataNode.replacing(out, at: DataPath(keys: e.keys), with: e.node) }
        return out
    }

    static func leaf(_ n: Double) -> DataNode { DataNode(leaf: .number(n)) }

    /// Named cases: deletions that empty their parent, a leaf given children (its priority kept),
    /// deleting below a leaf, new branches, the root itself.
    static let cases: [(String, [(keys: [String], node: DataNode?)])] = [
        ("delete empties parent", [(["only", "one"], nil), (["a", "b"], nil)]),
        ("leaf gains children", [(["leaf", "x"], leaf(1)), (["leaf", "y"], leaf(2)), (["n", "z"], nil)]),
        ("new branches", [(["p", "q", "r"], leaf(1)), (["p", "s"], leaf(2)), (["a", "c", "e"], leaf(3))]),
        ("delete everything", [(["a"], nil), (["leaf"], nil), (["only"], nil), (["n"], nil)]),
        ("mixed order", [(["b2"], leaf(1)), (["10"], leaf(2)), (["9"], leaf(3)), (["a", "b"], leaf(4)), (["a", "a"], nil)]),
        ("missing deletes", [(["zz", "y"], nil), (["a", "q"], nil)]),
        // Overlapping paths (which an update never has) apply in their order.
        ("deeper first, then its ancestor", [(["a", "c", "d"], leaf(1)), (["a", "c"], leaf(2)), (["n"], leaf(3))]),
        ("ancestor first, then below it", [(["a"], leaf(1)), (["a", "x"], leaf(2))]),
        ("same path twice", [(["n"], leaf(1)), (["b"], nil), (["n"], leaf(2))]),
        ("wide new parent", (0..<40).map { (["w", "k\($0)"], leaf(Double($0))) } + [(["a", "b"], leaf(9))]),
        // An existing one-leaf object merging more children than a leaf holds.
        ("narrow parent grows past a leaf", (0..<40).map { (["a", "k\($0)"], leaf(Double($0))) } + [(["a", "b"], nil)]),
    ]

    @Test(arguments: cases.indices)
    func sameAsOneByOne(_ index: Int) {
        let (name, entries) = Self.cases[index]
        for root in [Self.base, nil] {
            let batch = DataNode.replacing(root, entries: entries)
            let oneByOne = Self.sequential(root, entries)
            #expect(batch?.exportJSON() == oneByOne?.exportJSON(), "\(name)")
            #expect(batch?.count == oneByOne?.count, "\(name)")
        }
    }

    /// Several changes under a wide object (a child tree) at once, with inserts, replacements
    /// and deletes, some emptying the object.
    @Test func wideParent() throws {
        let wide = (0..<50).map { (["w", "k\($0)"], DataNode?.some(Self.leaf(Double($0)))) }
        let root = Self.sequential(Self.base, wide)
        let changes: [[(keys: [String], node: DataNode?)]] = [
            [(["w", "k3"], nil), (["w", "k30"], Self.leaf(-1)), (["w", "new"], Self.leaf(7)), (["n"], nil)],
            (0..<50).map { (["w", "k\($0)"], nil) },
            (0..<50).map { (["w", "k\($0)"], nil) } + [(["w", "z"], Self.leaf(1))],
        ]
        for entries in changes {
            let batch = DataNode.replacing(root, entries: entries)
            #expect(batch?.exportJSON() == Self.sequential(root, entries)?.exportJSON())
            #expect(batch?.count == Self.sequential(root, entries)?.count)
        }
    }

    /// Writing what is already there, or deleting what is missing, returns the same tree object.
    @Test func unchangedTreeIsTheSameObject() throws {
        let root = try #require(Self.base)
        let a = try #require(root.child("a"))
        let same = DataNode.replacing(root, entries: [(["a"], a), (["missing", "x"], nil), (["leaf", "gone"], nil)])
        #expect(same === root)
    }

    /// A pseudo-random large update, against the one-by-one result.
    @Test func manyEntries() {
        var rng = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ n: Int) -> Int { rng.below(n) }
        var seen = Set<[String]>()
        var entries: [(keys: [String], node: DataNode?)] = []
        // At most 6^3 prefix-free paths exist; 600 draws give a large update and always end.
        for _ in 0..<600 {
            let keys = (0...next(3)).map { _ in "k\(next(6))" }
            // Paths of one update never overlap: skip prefixes either way.
            if seen.contains(where: { $0.starts(with: keys) || keys.starts(with: $0) }) { continue }
            seen.insert(keys)
            entries.append((keys, next(4) == 0 ? nil : Self.leaf(Double(next(100)))))
        }
        #expect(entries.count > 50)
        let batch = DataNode.replacing(Self.base, entries: entries)
        #expect(batch?.exportJSON() == Self.sequential(Self.base, entries)?.exportJSON())
    }
}
