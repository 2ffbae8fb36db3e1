import Testing
import RulesRuntime

@Suite struct DataNodeJSONTests {
    @Test func exportSortsByKeyOrder() throws {
        let node = try #require(try DataNode.fromJSON(#"{"b": 1, "a": {"y": "s", "x": true}, "10": 1.5, "2": -0, "007": null}"#))
        #expect(node.exportJSON() == #"{"2":0,"10":1.5,"a":{"x":true,"y":"s"},"b":1}"#)
        // Byte order instead: "10" < "2" < "a".
        #expect(node.exportJSON(sortedKeys: false) == #"{"10":1.5,"2":0,"a":{"x":true,"y":"s"},"b":1}"#)
    }

    @Test(arguments: [
        (1.0, "1"), (-5, "-5"), (0.1, "0.1"), (123_456_789_012, "123456789012"), (1.5, "1.5"),
        (1e21, "1e+21"), (-0.0, "0"), (2.5e-7, "2.5e-07"), (1e17, "100000000000000000"), (1e18, "1e+18"),
    ])
    func numbers(value: Double, text: String) throws {
        #expect(DataNode(leaf: .number(value)).exportJSON() == text)
        // What is printed reads back as the same number.
        #expect(try DataNode.fromJSON(text)?.value == .number(value))
    }

    @Test func stringEscaping() {
        let s = "q\"b\\n\n t\t c\u{01} del\u{7F} é😀 /"
        #expect(DataNode(leaf: .string(s)).exportJSON() == #""q\"b\\n\n t\t c\u0001 del\u007f é😀 /""#)
    }

    @Test func prioritiesInExportFormat() throws {
        let leaf = DataNode(leaf: .number(1), priority: .string("p"))
        #expect(leaf.exportJSON() == #"{".value":1,".priority":"p"}"#)
        #expect(leaf.exportJSON(includePriority: false) == "1")
        let object = try #require(DataNode.object([("b", leaf), ("a", DataNode(leaf: .bool(false)))], priority: .number(2)))
        #expect(object.exportJSON() == #"{"a":false,"b":{".value":1,".priority":"p"},".priority":2}"#)
        #expect(object.exportJSON(includePriority: false) == #"{"a":false,"b":1}"#)
    }

    @Test func roundTrip() throws {
        let json = #"{"users":{"u1":{"name":"Ann","age":31,"tags":["a","b"],".priority":"x"},"u2":{".value":true,".priority":7}},"z":-2.75,"s":"\u0000 é"}"#
        let node = try #require(try DataNode.fromJSON(json))
        let exported = node.exportJSON()
        #expect(exported == #"{"s":"\u0000 é","users":{"u1":{"age":31,"name":"Ann","tags":{"0":"a","1":"b"},".priority":"x"},"u2":{".value":true,".priority":7}},"z":-2.75}"#)
        let again = try #require(try DataNode.fromJSON(exported))
        #expect(again.isEqual(to: node))
        #expect(again.exportJSON() == exported)
        #expect(node.descendant(["users", "u1"])?.priority == .string("x"))
        #expect(node.descendant(["users", "u2"])?.priority == .number(7))
    }

    @Test func fromJSONResolvesAndPrunes() throws {
        #expect(try DataNode.fromJSON("null") == nil)
        #expect(try DataNode.fromJSON(#"{"a": {}, "b": [null]}"#) == nil)
        #expect(try DataNode.fromJSON(#"{".sv": "timestamp"}"#)?.value == .number(0))
        #expect(throws: DataError.self) { try DataNode.fromJSON("{") }
    }
}
