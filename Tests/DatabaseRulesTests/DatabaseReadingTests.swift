import DatabaseRules
import Foundation
import Testing

/// Reading values back: `value(at:)`, `children(at:)`, JSON export with the array rule, and
/// decide-and-commit, compare-and-set and the shared handle.
@Suite struct DatabaseReadingTests {
    static let open = try! Ruleset(source: #"{"rules": {".read": true, ".write": true}}"#)

    @Test(arguments: [
        ("[1,2,3]", "[1,2,3]"),
        (#"{"0":"a","2":"c"}"#, #"["a",null,"c"]"#),
        (#"{"0":"a","3":"d"}"#, #"["a",null,null,"d"]"#),
        (#"{"0":"a","4":"e"}"#, #"{"0":"a","4":"e"}"#),
        (#"{"1":"b"}"#, #"[null,"b"]"#),
        (#"{"2":"c"}"#, #"{"2":"c"}"#),
        (#"{"01":"a","1":"b"}"#, #"{"1":"b","01":"a"}"#),
        (#"{"a":[true,{"0":1}]}"#, #"{"a":[true,[1]]}"#),
        (#"{"x":{".value":1,".priority":2}}"#, #"{"x":1}"#),
        ("null", "null"),
    ])
    func exportsArraysAsTheServerReadsThem(json: String, expected: String) throws {
        let database = try Database(json: json)
        #expect(database.exportJSON() == expected)
        #expect(database.value().description == expected)
    }

    @Test func exportWithPrioritiesKeepsObjects() throws {
        let database = try Database(json: #"{"0":{".value":"a",".priority":1},"1":"b"}"#)
        #expect(database.exportJSON(includePriority: true) == #"{"0":{".value":"a",".priority":1},"1":"b"}"#)
        #expect(database.exportJSON() == #"["a","b"]"#)
        #expect(database.description == #"{"0":{".value":"a",".priority":1},"1":"b"}"#)
    }

    @Test func valuesAndChildren() throws {
        let database = try Database(json: #"{"users":{"bob":{"age":7},"alice":{"age":9,"name":"Al"}}}"#)
        #expect(database.value(at: "/users/alice/age") == .number(9))
        #expect(database.value(at: "/users/alice") == .object(["age": .number(9), "name": .string("Al")]))
        #expect(database.value(at: "/nobody") == .null)
        #expect(database.children(at: "users").map(\.key) == ["alice", "bob"])
        #expect(database.children(at: "users/bob/age").isEmpty)
        #expect(database.exportJSON(at: "users/bob") == #"{"age":7}"#)
    }

    @Test func applyDecidesAndCommits() throws {
        let rules = try Ruleset(source: #"{"rules": {"$uid": {".write": "auth.uid === $uid"}}}"#)
        var database = Database()
        let allowed = database.apply(.set(path: "/alice", value: "hi"), rules: rules, auth: .user(uid: "alice"))
        #expect(allowed.allowed)
        let denied = database.apply(.set(path: "/bob", value: "hi"), rules: rules, auth: .user(uid: "alice"), explain: true)
        #expect(!denied.allowed)
        #expect(denied.explanation != nil)
        #expect(database.exportJSON() == #"{"alice":"hi"}"#)
    }

    @Test func compareAndSetCommitsOnlyOnTheExpectedHash() throws {
        var database = try Database(json: #"{"n":1}"#)
        let before = database.hash(at: "n")
        let stale = database.compareAndSet(path: "n", expectedHash: "bogus", value: 2, rules: Self.open)
        #expect(stale.status == .stale)
        #expect(stale.hash == before)
        #expect(database.value(at: "n") == .number(1))
        let done = database.compareAndSet(path: "n", expectedHash: before, value: 2, rules: Self.open)
        #expect(done.status == .committed)
        #expect(done.hash == database.hash(at: "n"))
        #expect(database.value(at: "n") == .number(2))
        let create = database.compareAndSet(path: "m", expectedHash: "", value: "x", rules: Self.open)
        #expect(create.status == .committed)
        let closed = try Ruleset(source: #"{"rules": {}}"#)
        let denied = database.compareAndSet(path: "m", expectedHash: "bogus", value: "y", rules: closed)
        #expect(denied.status == .denied)
        #expect(denied.hash == "")
    }

    @Test func concurrentCompareAndSetIncrementsLoseNothing() async throws {
        let shared = SharedDatabase()
        let rules = Self.open
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        while true {
                            let snapshot = shared.current
                            let n: Double = if case .number(let d) = snapshot.value(at: "counter") { d } else { 0 }
                            let result = shared.compareAndSet(
                                path: "counter", expectedHash: snapshot.hash(at: "counter"), value: .number(n + 1), rules: rules)
                            if result.status == .committed { break }
                        }
                    }
                }
            }
        }
        #expect(shared.current.value(at: "counter") == .number(400))
    }
}

/// The sub-expression that made a false rule false.
@Suite struct FalsePartTests {
    static let rules = try! Ruleset(source: """
        {"rules": {"x": {".write": "auth != null && (newData.val() === 1 || newData.val() === 2) && newData.val() > 0",
                         "$y": {".write": "auth.uid === 'a' ? newData.val() === 3 : false"}}}}
        """)

    static func falsePart(_ path: String, _ value: DataInput, uid: String?) -> String? {
        let decision = rules.decide(.set(path: path, value: value), on: Database(), auth: uid.map { .user(uid: $0) } ?? .null, explain: true)
        #expect(!decision.allowed)
        return decision.explanation?.decisive?.falsePart
    }

    @Test func itFollowsAndOrAndConditionals() {
        #expect(Self.falsePart("x", 5, uid: "a") == "newData.val() === 1")
        #expect(Self.falsePart("x", -1, uid: nil) == "auth != null")
        #expect(Self.falsePart("x/q", 4, uid: "a") == "newData.val() === 3")
    }
}
