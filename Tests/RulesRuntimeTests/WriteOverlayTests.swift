import Testing
@testable import RulesRuntime

/// The overlay describes the tree after a single-path write without building it: at every level
/// of the written path, what it says exists and what it builds must be the tree that
/// `DataNode.replacing` makes, and the snapshot entries through it must read the same nodes.
struct WriteOverlayTests {
    static let trees = [
        #"{"a": {"b": {"c": 1}, "d": "x"}, "e": true}"#,
        #"{"a": {"b": {"c": 1}}}"#,
        #"{"a": 5}"#,
        #"7"#,
        #"{"a": {"b": "leaf"}, "z": {"y": 1}}"#,
    ]
    static let paths: [[String]] = [[], ["a"], ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"], ["a", "d"], ["q", "r"], ["e", "f"], ["z", "y"]]
    static let values: [String?] = [nil, "1", "2", #"{"n": 1}"#, "\"x\""]

    /// The overlay of writing `node`; a leaf is also written as a pending input (made when
    /// read) on every other call, so both ways are checked.
    static func overlay(_ root: DataNode?, _ keys: [String], _ node: DataNode?, pending: Bool = false) -> WriteOverlay {
        var overlay = WriteOverlay()
        DataNode.pathNodes(root, keys, into: &overlay.oldPath, trails: &overlay.trails, ranks: &overlay.ranks)
        if pending, let leaf = node?.value {
            overlay.begin(keys, writingLeaf: .primitive(leaf), now: 0)
            #expect(overlay.writtenIsPending)
        } else {
            overlay.begin(keys, writing: node)
        }
        return overlay
    }

    static func same(_ a: DataNode?, _ b: DataNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return x.isEqual(to: y)
        default: return false
        }
    }

    @Test(arguments: trees)
    func everyLevelIsTheReplacedTree(_ json: String) throws {
        let root = try DataNode.fromJSON(json)
        for keys in Self.paths {
            for value in Self.values {
                let node = try value.flatMap { try DataNode.fromJSON($0) }
                let expected = DataNode.replacing(root, at: DataPath(keys: keys), with: node)
              for pending in [false, true] {
                var overlay = Self.overlay(root, keys, node, pending: pending)
                // Existence is answered without building anything, from any level, in any order.
                for level in (0...keys.count).reversed() {
                    let want = expected?.descendant(keys.prefix(level)) != nil
                    #expect(overlay.exists(at: level) == want, "exists at \(level) of \(keys) writing \(value ?? "null") on \(json)")
                    #expect(Self.same(overlay.peekNode(at: level), expected?.descendant(keys.prefix(level))))
                }
                // Built from the middle first, then the root: the levels agree, and existence
                // answered after a build is still per level.
                let middle = keys.count / 2
                #expect(Self.same(overlay.node(at: middle), expected?.descendant(keys.prefix(middle))))
                #expect(Self.same(overlay.node(at: 0), expected), "root of \(keys) writing \(value ?? "null") on \(json)")
                for level in 0...keys.count {
                    #expect(overlay.exists(at: level) == (expected?.descendant(keys.prefix(level)) != nil))
                }
                // Deleting what is not there changes nothing: the tree before is returned itself.
                if root?.descendant(keys) == nil && node == nil {
                    #expect(overlay.node(at: 0) === root)
                }
              }
            }
        }
    }

    /// Snapshot entries of the new tree read through the overlay: children off the path from
    /// the tree before, the written key down the path, and `hasChild` without building.
    @Test(arguments: trees)
    func snapshotEntriesReadThroughTheOverlay(_ json: String) throws {
        let root = try DataNode.fromJSON(json)
        for keys in Self.paths where !keys.isEmpty {
            for value in Self.values {
                let node = try value.flatMap { try DataNode.fromJSON($0) }
                let expected = DataNode.replacing(root, at: DataPath(keys: keys), with: node)
              for pending in [false, true] {
                var table = SnapshotTable()
                table.overlay = Self.overlay(root, keys, node, pending: pending)
                let top = table.addOverlayRoot()
                for probe in [["a"], ["a", "b"], ["a", "b", "c"], ["a", "d"], ["e"], ["q", "r"], ["z", "y"], ["a", "b", "c", "d"], ["e", "f"], ["e", "f", "g"], ["q", "r", "s"]] {
                    let entry = table.addDescendant(of: top, keys: probe)
                    let want = expected?.descendant(probe)
                    #expect(table.exists(entry) == (want != nil), "\(probe) after writing \(keys) = \(value ?? "null") on \(json)")
                    let parent = probe.count == 1 ? top : table.addDescendant(of: top, keys: Array(probe.dropLast()))
                    #expect(table.hasChild(of: parent, key: probe.last!, rank: KeyOrder.rank(probe.last!)) == (want != nil))
                    #expect(Self.same(table.node(entry), want), "\(probe) after writing \(keys) = \(value ?? "null") on \(json)")
                }
                #expect(Self.same(table.node(top), expected))
              }
            }
        }
    }
}
