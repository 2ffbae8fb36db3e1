import Testing
@testable import RulesRuntime

@Suite struct DataInputResolutionTests {
    private let existing = DataNode.object([
        ("count", DataNode(leaf: .number(41))),
        ("name", DataNode(leaf: .string("x"))),
        ("nested", DataNode.object([("n", DataNode(leaf: .number(10))), ("s", DataNode(leaf: .bool(true)))])!),
    ])

    @Test func incrementAddsToAnExistingNumber() {
        let node = DataInput.increment(1).resolved(now: 0, existing: existing?.child("count"))
        #expect(node?.value == .number(42))
    }

    @Test func incrementOnMissingOrNonNumberIsTheAmount() {
        #expect(DataInput.increment(5).resolved(now: 0, existing: nil)?.value == .number(5))
        #expect(DataInput.increment(5).resolved(now: 0, existing: existing?.child("name"))?.value == .number(5))
        #expect(DataInput.increment(5).resolved(now: 0, existing: existing)?.value == .number(5))
    }

    @Test func incrementIsResolvedPerLocation() throws {
        let write: DataInput = ["count": .increment(1), "nested": ["n": .increment(-3), "s": .increment(2), "new": .increment(7)]]
        let node = try #require(write.resolved(now: 0, existing: existing))
        #expect(node.child("count")?.value == .number(42))
        #expect(node.descendant(["nested", "n"])?.value == .number(7))
        #expect(node.descendant(["nested", "s"])?.value == .number(2))
        #expect(node.descendant(["nested", "new"])?.value == .number(7))
        // A set replaces: members not written are gone.
        #expect(node.child("name") == nil)
    }

    @Test func incrementFollowsDoubleArithmetic() {
        let big = DataNode(leaf: .number(9_007_199_254_740_992))
        #expect(DataInput.increment(1).resolved(now: 0, existing: big)?.value == .number(9_007_199_254_740_992))
        #expect(DataInput.increment(0.5).resolved(now: 0, existing: DataNode(leaf: .number(1)))?.value == .number(1.5))
    }

    @Test func timestampIsNow() throws {
        #expect(DataInput.timestamp.resolved(now: 1_700_000_000_123, existing: nil)?.value == .number(1_700_000_000_123))
        let node = try #require((["at": .timestamp, "list": [.timestamp]] as DataInput).resolved(now: 99, existing: existing))
        #expect(node.child("at")?.value == .number(99))
        #expect(node.descendant(["list", "0"])?.value == .number(99))
    }

    @Test func priorities() throws {
        let leaf = try #require(DataInput.withPriority("v", priority: .timestamp).resolved(now: 77, existing: nil))
        #expect(leaf.value == .string("v"))
        #expect(leaf.priority == .number(77))
        let object = try #require(DataInput.withPriority(["a": 1], priority: "p").resolved(now: 0, existing: nil))
        #expect(object.priority == .string("p"))
        #expect(object.keys == ["a"])
        // A priority on nothing is nothing.
        #expect(DataInput.withPriority(nil, priority: 1).resolved(now: 0, existing: nil) == nil)
        #expect(DataInput.withPriority([:], priority: 1).resolved(now: 0, existing: nil) == nil)
        // Invalid priorities (only possible when built in Swift) are dropped.
        #expect(DataInput.withPriority(1, priority: true).resolved(now: 0, existing: nil)?.priority == nil)
        // A plain write carries no priority, even over a node that had one.
        let old = DataNode(leaf: .number(1), priority: .string("old"))
        #expect(DataInput.number(2).resolved(now: 0, existing: old)?.priority == nil)
    }

    @Test func nullsAndEmptyObjectsArePruned() throws {
        #expect(DataInput.null.resolved(now: 0, existing: existing) == nil)
        #expect(DataInput.object([]).resolved(now: 0, existing: existing) == nil)
        #expect((["a": nil, "b": [:], "c": ["d": nil]] as DataInput).resolved(now: 0, existing: nil) == nil)
        let node = try #require((["a": nil, "b": 1, "c": ["d": [:], "e": false]] as DataInput).resolved(now: 0, existing: nil))
        #expect(node.keys == ["b", "c"])
        #expect(node.child("c")?.keys == ["e"])
        #expect(node.count == 4)
    }

    @Test func falsyValuesAreStored() throws {
        let node = try #require((["s": "", "n": 0, "b": false] as DataInput).resolved(now: 0, existing: nil))
        #expect(node.keys == ["b", "n", "s"])
        #expect(node.children.map(\.value) == [.bool(false), .number(0), .string("")])
    }

    @Test func resolvedTreeSortsKeys() throws {
        let node = try #require(DataInputReader.read(json: #"{"b": 1, "a": 2, "10": 3, "9": 4}"#).resolved(now: 0, existing: nil))
        #expect(node.keys == ["9", "10", "a", "b"])
    }

    /// Only an increment, at any depth, makes the writer look up what is stored now.
    @Test func onlyIncrementsReadTheExistingValue() {
        #expect(DataInput.increment(1).readsExisting)
        #expect(DataInput.object([("a", .object([("b", .increment(2))]))]).readsExisting)
        #expect(DataInput.withPriority(.increment(1), priority: 3).readsExisting)
        #expect(!DataInput.timestamp.readsExisting)
        #expect(!DataInput.object([("a", 1), ("b", .object([("c", .timestamp)]))]).readsExisting)
        #expect(!DataInput.withPriority(1, priority: .timestamp).readsExisting)
        #expect(!DataInput.null.readsExisting)
    }
}
