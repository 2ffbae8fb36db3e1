import Testing
import RulesRuntime

private func leaf(_ s: String) -> DataNode { DataNode(leaf: .string(s)) }
private func leaf(_ d: Double) -> DataNode { DataNode(leaf: .number(d)) }
private func path(_ text: String) -> DataPath { DataPath(keys: text.split(separator: "/").map(String.init)) }

/// An object node from literal pairs (which must not be empty).
private func obj(_ pairs: KeyValuePairs<String, DataNode>, priority: Primitive? = nil) throws -> DataNode {
    try #require(DataNode.object(pairs.map { ($0.key, $0.value) }, priority: priority))
}

/// A tree `{"k0": {"m0": {"l0": 0, …}, …}, …}` with `a * b * c` leaves; leaf `ki/mj/lk` holds
/// `i * 1_000_000 + j * 1000 + k`.
private func grid(_ a: Int, _ b: Int, _ c: Int) throws -> DataNode {
    var top: [(String, DataNode)] = []
    for i in 0..<a {
        var middle: [(String, DataNode)] = []
        for j in 0..<b {
            var leaves: [(String, DataNode)] = []
            for k in 0..<c {
                let number = Double(i * 1_000_000 + j * 1000 + k)
                leaves.append(("l\(k)", leaf(number)))
            }
            middle.append(("m\(j)", try #require(DataNode.object(leaves))))
        }
        top.append(("k\(i)", try #require(DataNode.object(middle))))
    }
    return try #require(DataNode.object(top))
}

@Suite struct DataNodeTests {
    @Test func objectSortsAndLastDuplicateWins() throws {
        let node = try #require(DataNode.object([("b", leaf(1)), ("10", leaf(2)), ("a", leaf(3)), ("2", leaf(4)), ("b", leaf(5))]))
        #expect(node.keys == ["2", "10", "a", "b"])
        #expect(node.children.map(\.value) == [.number(4), .number(2), .number(3), .number(5)])
        #expect(node.count == 5)
        #expect(node.value == nil)
        #expect(node.hasChildren)
        #expect(!leaf(1).hasChildren)
    }

    /// Keys that share their first eight bytes, with a duplicate among them: the order and
    /// the duplicate are decided by the bytes after the shared prefix.
    @Test func objectOrdersKeysThatShareALongPrefix() throws {
        let node = try #require(DataNode.object([
            ("-NxAbCdE2", leaf(1)), ("-NxAbCdE10", leaf(2)), ("-NxAbCdE2", leaf(3)), ("-NxAbCdE", leaf(4)), ("7", leaf(5)),
        ]))
        #expect(node.keys == ["7", "-NxAbCdE", "-NxAbCdE10", "-NxAbCdE2"])
        #expect(node.children.map(\.value) == [.number(5), .number(4), .number(2), .number(3)])
        #expect(node.child("-NxAbCdE2")?.value == .number(3))
        // A written value with the same members resolves to the same node.
        let input = DataInput.object([
            ("-NxAbCdE2", .primitive(.number(1))), ("-NxAbCdE10", .primitive(.number(2))), ("-NxAbCdE2", .primitive(.number(3))),
            ("-NxAbCdE", .primitive(.number(4))), ("7", .primitive(.number(5))),
        ])
        let resolved = try #require(input.resolved(now: 0, existing: nil))
        #expect(resolved.isEqual(to: node))
    }

    @Test func emptyObjectIsNil() {
        #expect(DataNode.object([]) == nil)
        #expect(DataNode.object([], priority: .number(1)) == nil)
    }

    @Test func childLookup() throws {
        let node = try #require(DataNode.object((0..<50).map { ("\($0 * 3)", leaf(Double($0))) } + [("x", leaf("x")), ("007", leaf("z"))]))
        #expect(node.child("42")?.value == .number(14))
        #expect(node.child("0")?.value == .number(0))
        #expect(node.child("147")?.value == .number(49))
        #expect(node.child("41") == nil)
        #expect(node.child("007")?.value == .string("z"))
        #expect(node.child("7") == nil)
        #expect(node.child("x")?.value == .string("x"))
        #expect(node.child("y") == nil)
        #expect(leaf(1).child("a") == nil)
    }

    @Test func descendant() throws {
        let tree = try grid(3, 3, 3)
        #expect(tree.descendant(["k1", "m2", "l0"])?.value == .number(1_002_000))
        #expect(tree.descendant([String]()) === tree)
        #expect(tree.descendant(["k1", "nope"]) == nil)
        #expect(tree.descendant(["k1", "m2", "l0", "deeper"]) == nil)
        #expect(DataNode.node(tree, at: path("k2/m1")) === tree.child("k2")?.child("m1"))
    }

    @Test func priorityOnlyStringOrNumber() {
        #expect(DataNode(leaf: .bool(true), priority: .string("p")).priority == .string("p"))
        #expect(DataNode(leaf: .bool(true), priority: .bool(true)).priority == nil)
    }

    @Test func replacingSharesUntouchedSubtrees() throws {
        // 1 + 20 + 20*50 + 20*50*100 = 101,021 nodes.
        let old = try grid(20, 50, 100)
        #expect(old.count == 101_021)
        let target = path("k7/m33/l42")
        let new = try #require(DataNode.replacing(old, at: target, with: leaf("changed")))

        #expect(new.descendant(target.keys)?.value == .string("changed"))
        #expect(old.descendant(target.keys)?.value == .number(7_033_042))
        #expect(new.count == old.count)
        // The nodes on the path are new...
        #expect(new !== old)
        #expect(new.child("k7") !== old.child("k7"))
        #expect(new.descendant(["k7", "m33"]) !== old.descendant(["k7", "m33"]))
        // ...and everything else is the same object.
        for key in old.keys where key != "k7" {
            #expect(new.child(key) === old.child(key))
        }
        for key in try #require(old.child("k7")).keys where key != "m33" {
            #expect(new.descendant(["k7", key]) === old.descendant(["k7", key]))
        }
        for key in try #require(old.descendant(["k7", "m33"])).keys where key != "l42" {
            #expect(new.descendant(["k7", "m33", key]) === old.descendant(["k7", "m33", key]))
        }
    }

    @Test func replacingAddsMissingPath() throws {
        let old = try #require(DataNode.object([("a", leaf(1))]))
        let new = try #require(DataNode.replacing(old, at: path("b/c/d"), with: leaf(2)))
        #expect(new.keys == ["a", "b"])
        #expect(new.child("a") === old.child("a"))
        #expect(new.descendant(["b", "c", "d"])?.value == .number(2))
        #expect(new.count == 5)
        #expect(old.keys == ["a"])
        let fromNothing = DataNode.replacing(nil, at: path("x/y"), with: leaf(3))
        #expect(fromNothing?.descendant(["x", "y"])?.value == .number(3))
    }

    @Test func deletingOnlyChildPrunesAncestors() throws {
        let old = try obj(["a": try obj(["b": try obj(["c": leaf(1)])]), "z": leaf(9)])
        let new = try #require(DataNode.replacing(old, at: path("a/b/c"), with: nil))
        #expect(new.keys == ["z"])
        #expect(new.child("z") === old.child("z"))
        // Deleting the last node empties the whole tree.
        let single = try obj(["a": try obj(["b": leaf(1)])])
        #expect(DataNode.replacing(single, at: path("a/b"), with: nil) == nil)
        // Writing {} deletes too: `{}` resolves to nil.
        let emptyWrite = DataInput.object([]).resolved(now: 0, existing: nil)
        #expect(DataNode.replacing(old, at: path("a"), with: emptyWrite)?.keys == ["z"])
    }

    @Test func deletingAnObjectsLastChildDropsItsPriority() throws {
        let a = try #require(DataNode.object([("b", leaf(1))], priority: .number(5)))
        let root = try #require(DataNode.object([("a", a), ("z", leaf(0))]))
        let new = try #require(DataNode.replacing(root, at: path("a/b"), with: nil))
        #expect(new.child("a") == nil)
        // Replacing a child keeps the parent's priority.
        let kept = try #require(DataNode.replacing(root, at: path("a/c"), with: leaf(2)))
        #expect(kept.child("a")?.priority == .number(5))
        #expect(kept.child("a")?.keys == ["b", "c"])
    }

    @Test func noOpWritesReturnTheSameTree() throws {
        let root = try grid(3, 3, 3)
        #expect(DataNode.replacing(root, at: path("k1/nope/deeper"), with: nil) === root)
        #expect(DataNode.replacing(root, at: path("k9"), with: nil) === root)
        let same = try #require(root.descendant(["k1", "m1"]))
        #expect(DataNode.replacing(root, at: path("k1/m1"), with: same) === root)
        #expect(DataNode.replacing(nil, at: path("a/b"), with: nil) == nil)
    }

    @Test func replacingAtRoot() throws {
        let root = try grid(2, 2, 2)
        #expect(DataNode.replacing(root, at: .root, with: nil) == nil)
        let l = leaf("x")
        #expect(DataNode.replacing(root, at: .root, with: l) === l)
    }

    @Test func writingUnderALeaf() throws {
        let root = try #require(DataNode.object([("a", DataNode(leaf: .string("text"), priority: .number(3)))]))
        // A child written under a leaf turns it into an object, keeping the priority.
        let new = try #require(DataNode.replacing(root, at: path("a/b"), with: leaf(1)))
        #expect(new.child("a")?.value == nil)
        #expect(new.child("a")?.keys == ["b"])
        #expect(new.child("a")?.priority == .number(3))
        // Deleting below a leaf changes nothing.
        #expect(DataNode.replacing(root, at: path("a/b"), with: nil) === root)
    }

    @Test func structuralEquality() throws {
        let a = try #require(DataNode.object([("x", leaf(1)), ("y", leaf("s"))]))
        let b = try #require(DataNode.object([("y", leaf("s")), ("x", leaf(1))]))
        #expect(a.isEqual(to: b))
        #expect(!a.isEqual(to: try #require(DataNode.object([("x", leaf(1)), ("y", leaf("t"))]))))
        #expect(!a.isEqual(to: a.withPriority(.string("p"))))
        #expect(!leaf("\u{E9}").isEqual(to: leaf("e\u{301}")))
    }
}
