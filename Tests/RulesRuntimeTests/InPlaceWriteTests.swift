import RulesCompiler
import RulesTestSupport
import Testing

@testable import RulesRuntime

/// `DataNode.write(_:at:in:)` changes in place only what nothing else holds: its result is
/// always the tree `DataNode.replacing(_:at:with:)` makes, every copy of the tree kept before the
/// write reads as it did, and the counts of data nodes stay right. `RulesEngine.apply` decides as
/// `decide` does and leaves the root its decision's tree.
@Suite struct InPlaceWriteTests {
    /// Keys from a small alphabet, so writes often hit existing children, and wide objects
    /// (over a child-tree leaf's 32 slots) so paths cross inner tree nodes.
    static func key(_ rng: inout SplitMix64) -> String {
        switch rng.below(4) {
        case 0: return ["a", "b", "c"][rng.below(3)]
        case 1: return "w\(rng.below(80))"
        case 2: return "\(rng.below(50))"
        default: return "long-key-past-fifteen-bytes-\(rng.below(40))"
        }
    }

    static func value(_ rng: inout SplitMix64, depth: Int) -> DataNode? {
        switch rng.below(depth > 2 ? 3 : 6) {
        case 0: return DataNode(leaf: .number(Double(rng.below(100))))
        case 1: return DataNode(leaf: .string(rng.chance(0.5) ? "s" : String(repeating: "x", count: 20 + rng.below(10))))
        case 2: return rng.chance(0.15) ? DataNode(leaf: .bool(true), priority: .number(1)) : DataNode(leaf: .bool(rng.chance(0.5)))
        default:
            let n = rng.chance(0.3) ? 30 + rng.below(60) : 1 + rng.below(4)
            var pairs: [(String, DataNode)] = []
            var seen = Set<String>()
            for _ in 0..<n {
                let k = key(&rng)
                guard seen.insert(k).inserted, let child = value(&rng, depth: depth + 1) else { continue }
                pairs.append((k, child))
            }
            return DataNode.object(pairs, priority: rng.chance(0.1) ? .string("p") : nil)
        }
    }

    static func path(_ rng: inout SplitMix64) -> [String] {
        (0..<(1 + rng.below(4))).map { _ in key(&rng) }
    }

    /// The number of data nodes, counted child by child.
    static func recount(_ node: DataNode) -> Int {
        var n = 1
        node.forEachChild { _, child in n += recount(child) }
        return n
    }

    static func same(_ a: DataNode?, _ b: DataNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): x.isEqual(to: y) && x.count == y.count
        default: false
        }
    }

    /// Writes one after another into a tree nothing else holds, and into trees of which copies
    /// are kept along the way: the same trees as the persistent writes, and every kept copy
    /// unchanged.
    @Test(arguments: [1, 2, 3, 4])
    func writesInPlaceAreThePersistentWrites(seed: UInt64) {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        var inPlace = Self.value(&rng, depth: 0)
        var persistent = inPlace
        var kept: [(DataNode?, String)] = []
        for step in 0..<400 {
            let keys = Self.path(&rng)
            let node = rng.chance(0.15) ? nil : Self.value(&rng, depth: keys.count)
            persistent = DataNode.replacing(persistent, at: DataPath(keys: keys), with: node)
            // The in-place tree is built apart from the persistent one, so that it is unshared
            // except where a kept copy shares it.
            if step == 0 { inPlace = persistent.flatMap { try? DataNode.fromJSON($0.exportJSON(includePriority: true)) } }
            else { DataNode.write(node, at: keys, in: &inPlace) }
            #expect(Self.same(inPlace, persistent), "step \(step): writing \(keys)")
            if let inPlace { #expect(inPlace.count == Self.recount(inPlace), "step \(step)") }
            if rng.chance(0.1) { kept.append((inPlace, inPlace?.exportJSON(includePriority: true) ?? "null")) }
            if kept.count > 4 { kept.removeFirst(rng.below(kept.count)) }
        }
        for (copy, json) in kept {
            let unchanged = (copy?.exportJSON(includePriority: true) ?? "null") == json
            #expect(unchanged, "a copy kept before later writes changed")
        }
    }

    /// A write into a tree that nothing else holds keeps the objects on its path (changed where
    /// they are); with a copy kept, the copy's objects are left alone and the writer gets new ones.
    @Test func aTreeHeldOnlyByTheWriterIsChangedWhereItIs() throws {
        let wide = (0..<200).map { #""k\#($0)": {"title": "t", "n": \#($0)}"# }.joined(separator: ",")
        var root = try DataNode.fromJSON(#"{"posts": {\#(wide)}, "x": 1}"#)
        let before = ObjectIdentifier(try #require(root?.storage))
        DataNode.write(DataNode(leaf: .string("new")), at: ["posts", "k150", "title"], in: &root)
        #expect(ObjectIdentifier(try #require(root?.storage)) == before)
        #expect(root?.descendant(["posts", "k150", "title"])?.value == .string("new"))
        #expect(root.map { $0.count == Self.recount($0) } == true)

        let copy = root
        DataNode.write(DataNode(leaf: .string("newer")), at: ["posts", "k150", "title"], in: &root)
        #expect(ObjectIdentifier(try #require(root?.storage)) != before)
        #expect(copy?.descendant(["posts", "k150", "title"])?.value == .string("new"))
        #expect(root?.descendant(["posts", "k150", "title"])?.value == .string("newer"))
    }

    static let rules = #"""
    {"rules": {
      ".read": true,
      "posts": { "$p": {
        ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid)",
        ".validate": "newData.hasChildren(['uid', 'title'])",
        "title": { ".validate": "newData.isString() && newData.val().length < 10" },
        "n": { ".validate": "newData.isNumber()" }
      } },
      "open": { ".write": true }
    }}
    """#

    /// `apply` on a root nothing else holds, and on one with a copy kept, decides every write as
    /// `decide` does, and the root afterwards is the decision's tree.
    @Test func applyDecidesAsDecideAndLeavesTheNewTree() throws {
        let engine = RulesEngine(ruleset: try #require(RulesCompiler.compile(source: Self.rules).ruleset))
        var rng = SplitMix64(seed: 77)
        var root = try DataNode.fromJSON(#"{"posts": {"p1": {"uid": "a", "title": "one", "n": 1}}, "open": {"k": 1}}"#)
        var scratch = DecisionScratch()
        var outcomes = Set<Bool>()
        for step in 0..<300 {
            let post = "p\(rng.below(6))"
            let user = AuthValue.user(uid: ["a", "b"][rng.below(2)])
            let ops: [DatabaseOperation] = [
                .set(path: "/posts/\(post)/title", value: .string(rng.chance(0.8) ? "t\(step % 10)" : "far too long a title")),
                .set(path: "/posts/\(post)", value: ["uid": .string(user["uid"] == .string("a") ? "a" : "b"), "title": "new"]),
                .delete(path: "/posts/\(post)"),
                .set(path: "/posts/\(post)/n", value: .increment(1)),
                .set(path: "/open/w\(rng.below(60))", value: .number(Double(step))),
                .delete(path: "/open/w\(rng.below(60))"),
                .update(path: "/", values: [("open/u\(rng.below(5))", 1), ("posts/\(post)/n", 2)]),
                .set(path: "/posts/\(post)/title/", value: "odd"),
            ]
            let op = ops[rng.below(ops.count)]
            let expected = engine.decide(op, on: root, auth: user, now: 1)
            // Sometimes a copy of the tree is kept across the write, with its contents then.
            let copy: (node: DataNode?, json: String)? = rng.chance(0.3) ? (root, root?.exportJSON(includePriority: true) ?? "null") : nil
            let applied = rng.chance(0.5)
                ? engine.apply(op, to: &root, auth: user, now: 1, scratch: &scratch)
                : engine.apply(op, to: &root, auth: user, now: 1)
            #expect(applied.allowed == expected.allowed, "step \(step): \(op)")
            #expect(applied.reason == expected.reason, "step \(step): \(op)")
            #expect(Self.same(root, expected.newRoot), "step \(step): \(op)")
            #expect(Self.same(applied.newRoot, root), "step \(step): \(op)")
            if let copy { #expect((copy.node?.exportJSON(includePriority: true) ?? "null") == copy.json, "step \(step): a kept copy changed") }
            if let root { #expect(root.count == Self.recount(root)) }
            outcomes.insert(applied.allowed)
        }
        #expect(outcomes == [true, false])
    }
}
