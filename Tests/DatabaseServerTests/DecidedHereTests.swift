import DatabaseRules
import Foundation
import Testing

@testable import DatabaseServer

/// Requests decided on the thread that received them (``Namespace``'s fast path): the same
/// outcomes as through the queues, never ahead of a queued write, and never more than
/// ``NamespaceRules/inlineSteps`` steps of rules there (a decision that needs more is made again,
/// whole, off the pool).
@Suite struct DecidedHereTests {
    /// Every child of `/items` must be a lowercase word: a write of many children takes a few
    /// steps each. `/big` may be read only while `/words` has no `#`, which costs a step per 64 bytes of it.
    static let rules = try! NamespaceRules(
        ruleset: Ruleset(source: """
            {"rules": {
              "counters": {"$c": {".read": "auth != null", ".write": "auth != null", ".validate": "newData.isNumber()"}},
              "items": {".write": "auth != null", "$k": {".validate": "newData.isString() && newData.val().matches(/^[a-z]+$/) && newData.val().length < 20"}},
              "big": {".read": "auth != null && !root.child('words').val().contains('#')"},
              "words": {".write": true}
            }}
            """), source: "", origin: .uploaded)

    static let alice = Identity.user(.user(uid: "alice"))

    @Test func aWriteDoesNotOvertakeAQueuedOne() async throws {
        let ns = Namespace(name: "queued", rules: Self.rules)
        let gate = DispatchSemaphore(value: 0)
        ns.executor.enqueueWrite { gate.wait() }
        let write = Task { try await ns.write(.set(path: "/counters/c", value: 1), as: Self.alice, now: 0) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(ns.database.root == nil, "the write waits behind the queued one")
        gate.signal()
        _ = try await write.value
        #expect(ns.database.root.flatMap { DataNode.node($0, at: DataPath(keys: ["counters", "c"])) }?.exportJSON(includePriority: false) == "1")
    }

    @Test func aWriteThatNeedsMoreStepsIsDecidedWithTheWholeBudget() async throws {
        var children: [(String, DataInput)] = []
        for i in 0..<900 { children.append(("k\(i)", .string("word"))) }
        let operation = DatabaseOperation.set(path: "/items", value: .object(children))
        let auth = AuthValue.user(uid: "alice")
        // The premise: more than the fast path's steps, well within the whole budget.
        #expect(Self.rules.inlineEngine.decide(operation, on: nil, auth: auth, now: 0).isBudgetExhausted)
        #expect(Self.rules.ruleset.decide(operation, on: Database(), auth: auth, now: 0).allowed)
        let ns = Namespace(name: "steps", rules: Self.rules)
        _ = try await ns.write(operation, as: Self.alice, now: 0)
        #expect(ns.database.root.flatMap { DataNode.node($0, at: DataPath(keys: ["items"])) }?.childCount == 900)
        // And a denied one is denied with its explanation, as before.
        await #expect(throws: ServerError.self) {
            _ = try await ns.write(.set(path: "/items/x", value: "Not a word"), as: Self.alice, now: 0)
        }
    }

    @Test func aReadThatNeedsMoreStepsIsDecidedWithTheWholeBudget() async throws {
        let words = String(repeating: "word ", count: 200_000)  // 1 MB: about 16,000 steps
        let ns = Namespace(name: "read", rules: Self.rules, database: try Database(json: #"{"big": 7, "words": "\#(words)"}"#))
        let operation = DatabaseOperation.read(path: "/big")
        let auth = AuthValue.user(uid: "alice")
        #expect(Self.rules.inlineEngine.decide(operation, on: ns.database.root, auth: auth, now: 0).isBudgetExhausted)
        #expect(Self.rules.ruleset.decide(operation, on: ns.database, auth: auth, now: 0).allowed)
        let read = try await ns.read(DataPath(keys: ["big"]), as: Self.alice, now: 0)
        #expect(read.node?.exportJSON(includePriority: false) == "7")
    }

    @Test func listenersHearWritesDecidedEitherWay() async throws {
        let ns = Namespace(name: "listen", rules: Self.rules)
        // Decided here: nobody listens yet.
        _ = try await ns.write(.set(path: "/counters/c", value: 1), as: Self.alice, now: 0)
        let sink = RecordingSink()
        let (id, _) = try await ns.listen(DataPath(keys: ["counters", "c"]), as: Self.alice, sink: sink, now: 0)
        // Through the queue: somebody listens.
        _ = try await ns.write(.set(path: "/counters/c", value: 2), as: Self.alice, now: 0)
        #expect(sink.received.count == 1)
        ns.unlisten(id)
        _ = try await ns.write(.set(path: "/counters/c", value: 3), as: Self.alice, now: 0)
        #expect(sink.received.count == 1)
        #expect(ns.database.root.flatMap { DataNode.node($0, at: DataPath(keys: ["counters", "c"])) }?.exportJSON(includePriority: false) == "3")
    }
}
