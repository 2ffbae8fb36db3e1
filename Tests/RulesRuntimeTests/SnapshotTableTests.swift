import Testing

@testable import RulesRuntime

/// The snapshot table looks nodes up lazily; what a rule reads must be what is stored, however
/// the location was reached.
@Suite struct SnapshotTableTests {
    static func tree() throws -> DataNode {
        try #require(try DataNode.fromJSON(#"{"a": {"b": {"c": 1}, "d": "x"}, "e": true}"#))
    }

    @Test func childEntriesResolveToTheStoredNodes() throws {
        let root = try Self.tree()
        var table = SnapshotTable()
        let r = table.addRoot(root)
        let c = table.addDescendant(of: r, path: "a/b/c")
        let missing = table.addDescendant(of: c, path: "deeper/still")
        let d = table.addChild(of: table[table[c].parent].parent, key: "d")
        // Not looked up until read.
        #expect(!table[c].resolved && !table[d].resolved)
        #expect(table.peekNode(c)?.value == .number(1))
        #expect(!table[c].resolved, "peekNode must not change the table")
        #expect(table.node(c)?.value == .number(1))
        #expect(table[c].resolved && table[table[c].parent].resolved)
        #expect(table.node(d)?.value == .string("x"))
        #expect(table.node(missing) == nil)
        #expect(table.peekNode(missing) == nil)
        #expect(table.path(of: missing) == ["a", "b", "c", "deeper", "still"])
        // child('') names no location.
        let empty = table.addDescendant(of: r, path: "")
        #expect(table.node(empty) == nil && table[empty].parent == r)
    }

    /// One location, one entry: asking again for a child returns the same entry (with the rank
    /// known or not), while keys that share their first eight bytes, integer keys and
    /// canonically equivalent spellings stay apart. A resolved child added over an unresolved
    /// entry resolves it.
    @Test func aLocationHasOneEntry() throws {
        let root = try #require(try DataNode.fromJSON(#"{"abcdefgh1": 1, "abcdefgh2": 2, "7": 3, "\u00e9": 4, "e\u0301": 5}"#))
        var table = SnapshotTable()
        let r = table.addRoot(root)
        let first = table.addChild(of: r, key: "abcdefgh1")
        #expect(table.addChild(of: r, key: "abcdefgh1") == first)
        #expect(table.addChild(of: r, key: "abcdefgh1", rank: KeyOrder.rank("abcdefgh1")) == first)
        let second = table.addChild(of: r, key: "abcdefgh2", rank: KeyOrder.rank("abcdefgh2"))
        #expect(second != first)
        let seven = table.addChild(of: r, key: "7", rank: KeyOrder.rank("7"))
        let composed = table.addChild(of: r, key: "\u{E9}")
        let decomposed = table.addChild(of: r, key: "e\u{301}")
        #expect(Set([first, second, seven, composed, decomposed]).count == 5)
        #expect(table.addDescendant(of: r, path: "7") == seven)
        let values = [first, second, seven, composed, decomposed].map { table.node($0)?.value }
        #expect(values == [.number(1), .number(2), .number(3), .number(4), .number(5)])
        // The same key under another parent is another location.
        let nested = table.addChild(of: first, key: "abcdefgh1")
        #expect(nested != first && table.node(nested) == nil)
        // An entry added unresolved, then given its node by the writer.
        let later = table.addChild(of: r, key: "new")
        #expect(!table[later].resolved)
        let leaf = DataNode(leaf: .bool(true))
        #expect(table.addChild(of: r, key: "new", node: leaf) == later)
        #expect(table.node(later) === leaf)
        #expect(table.entries.count == 8)
    }

    /// Only the most recent siblings are searched, so visiting thousands of children stays
    /// linear: an older child asked for again gets a second entry, which resolves to the same
    /// node.
    @Test func onlyRecentSiblingsAreSearched() throws {
        let pairs = (0..<20).map { ("k\($0)", DataNode(leaf: .number(Double($0)))) }
        var table = SnapshotTable()
        let r = table.addRoot(DataNode.object(pairs))
        let entries = (0..<20).map { table.addChild(of: r, key: "k\($0)") }
        let recent = SnapshotTable.siblingsSearched
        #expect(table.addChild(of: r, key: "k19") == entries[19])
        #expect(table.addChild(of: r, key: "k\(20 - recent)") == entries[20 - recent])
        let again = table.addChild(of: r, key: "k0")
        #expect(again != entries[0])
        #expect(table.node(again)?.value == .number(0))
        #expect(table.node(entries[0])?.value == .number(0))
    }

    /// A write keeps both versions of its path; the new one must be the path through the tree
    /// it returns, at every level, for sets, deletes, no-op writes and created ancestors.
    @Test(arguments: [
        (["a", "b", "c"], DataNode?.some(DataNode(leaf: .number(2)))),
        (["a", "b", "c"], nil),
        (["a", "b", "c"], DataNode?.some(DataNode(leaf: .number(1)))),
        (["x", "y"], DataNode?.some(DataNode(leaf: .bool(true)))),
        (["x", "y"], nil),
        (["e", "f"], DataNode?.some(DataNode(leaf: .bool(false)))),
        (["a"], nil),
    ])
    func writtenPathMatchesTheNewTree(keys: [String], node: DataNode?) throws {
        let root = try Self.tree()
        var old: [DataNode?] = []
        var new: [DataNode?] = []
        var trails: [Int32] = []
        var ranks: [KeyRank] = []
        DataNode.pathNodes(root, keys, into: &old, trails: &trails, ranks: &ranks)
        let result = DataNode.replacing(root, along: old, keys, with: node, newPath: &new, trails: trails)
        #expect(new.count == keys.count + 1)
        var expected: [DataNode?] = []
        DataNode.pathNodes(result, keys, into: &expected, trails: &trails, ranks: &ranks)
        for i in 0...keys.count {
            #expect(new[i] === expected[i], "level \(i) of \(keys)")
        }
        // The same tree as the plain path replacement.
        let direct = DataNode.replacing(root, at: DataPath(keys: keys), with: node)
        if let result, let direct {
            #expect(result === direct || result.isEqual(to: direct))
        } else {
            #expect(result == nil && direct == nil)
        }
    }

    /// A rollback forgets the entries made after the mark and the links made to them under
    /// older entries, so that looking a child up again makes a fresh entry, and what was there
    /// before the mark is found as before.
    @Test func aRollbackForgetsEntriesAndTheirLinks() throws {
        let root = try Self.tree()
        var table = SnapshotTable()
        let r = table.addRoot(root)
        let a = table.addChild(of: r, key: "a")
        let mark = table.mark()
        let b = table.addChild(of: a, key: "b")
        let e = table.addChild(of: r, key: "e")
        #expect(table.entries.count == 4)
        #expect(b >= mark.firstEntry && e >= mark.firstEntry)
        table.rollback(mark)
        #expect(table.entries.count == 2)
        // The links to forgotten entries are gone: a look-up makes new entries that resolve.
        #expect(table.addChild(of: r, key: "a") == a)
        let e2 = table.addChild(of: r, key: "e")
        #expect(table.node(e2)?.value == .bool(true))
        #expect(table.node(table.addChild(of: a, key: "d"))?.value == .string("x"))
        // Nested marks: keeping the inner one leaves its entries to the outer rollback.
        let outer = table.mark()
        let inner = table.mark()
        _ = table.addChild(of: a, key: "zz")
        table.keep(inner)
        _ = table.addChild(of: r, key: "yy")
        table.rollback(outer)
        #expect(table.entries.count == Int(outer.firstEntry))
        #expect(table.node(table.addDescendant(of: r, path: "a/b/c"))?.value == .number(1))
    }
}
