import RulesCompiler
import Testing

@testable import RulesRuntime

/// Decisions with reused scratch storage are the same as decisions without it.
@Suite struct DecisionScratchTests {
    static let rules = #"""
    {"rules": {
      "users": { "$uid": {
        ".read": "auth != null",
        ".write": "auth != null && auth.uid === $uid",
        ".validate": "newData.hasChildren(['name'])",
        "name": { ".validate": "newData.isString() && newData.val().length < 10" },
        "$other": { ".validate": false }
      } },
      "rooms": { "$room": { "members": { "$member": {
        ".read": "data.parent().child(auth.uid).exists()",
        ".write": "$member === auth.uid"
      } } } }
    }}
    """#

    static let operations: [(DatabaseOperation, AuthValue)] = [
        (.read(path: "/users/a"), .user(uid: "a")),
        (.read(path: "/users/a"), .null),
        (.read(path: "users//a"), .user(uid: "a")),
        (.read(path: "/users/a.b"), .user(uid: "a")),
        (.read(path: "/rooms/r1/members/a"), .user(uid: "a")),
        (.read(path: "/rooms/r1/members/b"), .user(uid: "zed")),
        (.set(path: "/users/a", value: ["name": "Ann"]), .user(uid: "a")),
        (.set(path: "/users/a", value: ["name": "Annabelle Lee"]), .user(uid: "a")),
        (.set(path: "/users/a", value: ["name": "Ann", "x": 1]), .user(uid: "a")),
        (.set(path: "/users/b", value: ["name": "Bob"]), .user(uid: "a")),
        (.update(path: "/", values: [("users/a/name", "A"), ("rooms/r1/members/a", true)]), .user(uid: "a")),
        (.update(path: "/users", values: [("a", ["name": "A"]), ("a/name", "B")]), .user(uid: "a")),
        (.delete(path: "/users/a"), .user(uid: "a")),
        (.push(path: "/rooms/r1/members", value: true, key: "a"), .user(uid: "a")),
        (.read(path: "/users/a"), .user(uid: "a")),
    ]

    @Test func reusedScratchDecidesAsAFreshEvaluation() throws {
        let ruleset = try #require(RulesCompiler.compile(source: Self.rules).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        let root = try DataNode.fromJSON(#"{"users": {"a": {"name": "Ann"}}, "rooms": {"r1": {"members": {"a": true}}}}"#)
        var scratch = DecisionScratch()
        // Twice over, so the second round runs on storage every operation has used.
        for _ in 0..<2 {
            for (op, auth) in Self.operations {
                let plain = engine.decide(op, on: root, auth: auth, now: 1)
                let reused = engine.decide(op, on: root, auth: auth, now: 1, scratch: &scratch)
                #expect(plain.allowed == reused.allowed)
                #expect(plain.reason == reused.reason)
                #expect(reused.explanation == nil)
                switch (plain.newRoot, reused.newRoot) {
                case (nil, nil): break
                case (let a?, let b?): #expect(a.isEqual(to: b))
                default: Issue.record("one decision has a tree and the other none")
                }
            }
        }
        // Some operations must be allowed and some denied, or the comparison proves little.
        let outcomes = Self.operations.map { engine.decide($0.0, on: root, auth: $0.1, now: 1).allowed }
        #expect(outcomes.contains(true) && outcomes.contains(false))
    }

    @Test(arguments: ["", "/", "a", "/a/b", "a/b/", "/a/b/", "//", "a//b", "/a.b", "/é/e\u{301}", "/\u{7F}", "/a/" + String(repeating: "k", count: 769)])
    func fastSplitAgreesWithTheValidatingParser(text: String) {
        var keys = ["stale"]
        let fast = DataPath.splitValidKeys(text, into: &keys)
        let parsed = try? DataPath(validating: text)
        if fast {
            #expect(parsed?.keys == keys)
        } else {
            #expect(parsed == nil)
        }
    }
}
