import DatabaseRules
import Testing

/// A path a rule builds from data (`root.child(newData.val())`) can be as long as a string may
/// be: looking it up must not recurse once per key (20,000 keys overflowed the stack).
@Suite struct DeepRuntimePathTests {
    static let deep = Array(repeating: "a", count: 20_000).joined(separator: "/")

    @Test(arguments: [false, true])
    func aPathOfTwentyThousandKeysIsLookedUpWithoutRecursion(explain: Bool) throws {
        let rules = try Ruleset(source: #"""
            {"rules": {".read": true, "$k": {
              ".write": "!root.child(newData.val()).exists() && root.child(newData.val() + '/b').val() == null && !data.parent().hasChild(newData.val())",
              ".validate": "!newData.parent().child(newData.val()).exists() && !newData.parent().child(newData.val()).hasChildren()"
            }}}
            """#)
        var database = try Database(json: #"{"a": {"a": {"a": 1}}}"#)
        let decision = database.apply(.set(path: "/k", value: .primitive(.string(Self.deep))), rules: rules, explain: explain)
        #expect(decision.allowed)
        #expect(database.value(at: "/k") == .string(Self.deep))
    }

    @Test func aDeepPathThatExistsInPartIsFoundToBeMissing() throws {
        let rules = try Ruleset(source: #"{"rules": {".read": true, "check": {".write": "root.child(newData.val()).exists()"}}}"#)
        var database = try Database(json: #"{"a": {"a": {"a": 1}}}"#)
        #expect(database.apply(.set(path: "/check", value: "a/a/a"), rules: rules).allowed)
        #expect(!database.apply(.set(path: "/check", value: .primitive(.string(Self.deep))), rules: rules, explain: true).allowed)
    }
}
