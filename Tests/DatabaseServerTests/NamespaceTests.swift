import DatabaseRules
import Synchronization
import Testing

@testable import DatabaseServer

/// A sink that keeps what it is given.
final class RecordingSink: EventSink {
    let events = Mutex<[DatabaseEvent]>([])
    let finished = Mutex(false)
    let capacity: Int

    init(capacity: Int = .max) { self.capacity = capacity }

    func deliver(_ event: DatabaseEvent) -> Bool {
        events.withLock { events in
            guard events.count < capacity else { return false }
            events.append(event)
            return true
        }
    }

    func finish() { finished.withLock { $0 = true } }
    var received: [DatabaseEvent] { events.withLock { $0 } }
    var isFinished: Bool { finished.withLock { $0 } }
}

/// The database room without sockets: decisions, commits, conditions and the events listeners see.
@Suite struct NamespaceTests {
    static let rules = try! NamespaceRules(
        ruleset: Ruleset(source: """
            {"rules": {
              "rooms": {"$r": {".read": "data.child('public').val() === true", ".write": "auth != null"}},
              "users": {"$uid": {".read": true, ".write": "auth.uid === $uid", ".validate": "newData.isString()"}}
            }}
            """), source: "", origin: .uploaded)
    static let alice = Identity.user(.user(uid: "alice"))

    func namespace() -> Namespace { Namespace(name: "t", rules: Self.rules) }

    @Test func writesAreDecidedByTheRulesAndAdminBypassesThem() async throws {
        let ns = namespace()
        _ = try await ns.write(.set(path: "/users/alice", value: "hi"), as: Self.alice, now: 0)
        await #expect(throws: ServerError.self) { try await ns.write(.set(path: "/users/bob", value: "hi"), as: Self.alice, now: 0) }
        await #expect(throws: ServerError.self) { try await ns.write(.set(path: "/users/alice", value: 5), as: Self.alice, now: 0) }
        _ = try await ns.write(.set(path: "/users/bob", value: 5), as: .admin, now: 0)
        #expect(ns.database.exportJSON() == #"{"users":{"alice":"hi","bob":5}}"#)
    }

    @Test func aDenialCarriesTheDecidingRule() async {
        let ns = namespace()
        do {
            _ = try await ns.write(.set(path: "/users/bob", value: "x"), as: Self.alice, now: 0)
            Issue.record("allowed")
        } catch {
            #expect(error.kind == .permissionDenied)
            #expect(error.message == "Permission denied")
            #expect(error.explanation?.contains("/users/$uid/.write at database.rules.json:3:") == true)
            #expect(error.explanation?.contains("$uid = bob") == true)
            // What made the rule false: the values it compared.
            #expect(error.explanation?.contains("is false: 'alice' === 'bob'") == true, "\(error.explanation ?? "")")
        }
    }

    @Test func invalidRequestsAreBadRequestsNotDenials() async {
        let ns = namespace()
        do {
            _ = try await ns.write(.update(path: "/", values: [("a", 1), ("a/b", 2)]), as: .admin, now: 0)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .badRequest)
            #expect(error.message.contains("overlap"))
        }
    }

    @Test func aConditionalWriteChecksTheETagUnderTheLock() async throws {
        let ns = namespace()
        _ = try await ns.write(.set(path: "/users/alice", value: "a"), as: .admin, now: 0)
        let etag = NodeHash.etag(of: ns.database.node(at: "users/alice"))
        guard case .stale(let current, let now) = try await ns.write(.set(path: "/users/alice", value: "b"), as: .admin, now: 0, condition: .ifMatch("bogus")) else {
            Issue.record("not stale"); return
        }
        #expect(current?.value == .string("a") && now == etag)
        guard case .committed = try await ns.write(.set(path: "/users/alice", value: "b"), as: .admin, now: 0, condition: .ifMatch(etag)) else {
            Issue.record("not committed"); return
        }
        guard case .committed = try await ns.write(.set(path: "/users/carol", value: "c"), as: .admin, now: 0, condition: .ifMatch("null_etag")) else {
            Issue.record("null_etag did not create"); return
        }
    }

    @Test func listenersSeeWritesBelowAboveAndAsPatches() async throws {
        let ns = namespace()
        _ = try await ns.write(.set(path: "/rooms/r1", value: ["public": true, "title": "t"]), as: .admin, now: 0)
        let sink = RecordingSink()
        let (_, initial) = try await ns.listen(DataPath(keys: ["rooms", "r1"]), as: Self.alice, sink: sink, now: 0)
        #expect(initial?.exportJSON() == #"{"public":true,"title":"t"}"#)
        _ = try await ns.write(.push(path: "/rooms/r1/msgs", value: "", key: "-K1"), as: .admin, now: 0)
        _ = try await ns.write(.update(path: "/rooms/r1", values: [("title", "x"), ("meta/n", 1)]), as: .admin, now: 0)
        _ = try await ns.write(.set(path: "/rooms/r1/title", value: "y"), as: .admin, now: 0)
        _ = try await ns.write(.set(path: "/rooms/r1/title", value: "y"), as: .admin, now: 0)  // no change: no event
        _ = try await ns.write(.set(path: "/rooms/r2", value: ["public": true]), as: .admin, now: 0)  // elsewhere
        _ = try await ns.write(.update(path: "/", values: [("rooms/r1/meta/n", 2)]), as: .admin, now: 0)
        _ = try await ns.write(.set(path: "/rooms", value: ["r1": ["public": true]]), as: .admin, now: 0)
        #expect(sink.received == [
            .put(path: "/msgs/-K1", value: RenderedValue(json: #""""#)),
            .patch(path: "/", value: RenderedValue(json: #"{"title":"x","meta/n":1}"#)),
            .put(path: "/title", value: RenderedValue(json: #""y""#)),
            .patch(path: "/", value: RenderedValue(json: #"{"meta/n":2}"#)),
            .put(path: "/", value: RenderedValue(json: #"{"public":true}"#)),
        ])
    }

    @Test func aListenerLosingItsReadIsCancelledAndHearsNothingMore() async throws {
        let ns = namespace()
        _ = try await ns.write(.set(path: "/rooms/r1/public", value: true), as: .admin, now: 0)
        let sink = RecordingSink()
        _ = try await ns.listen(DataPath(keys: ["rooms", "r1"]), as: Self.alice, sink: sink, now: 0)
        await #expect(throws: ServerError.self) { try await ns.listen(DataPath(keys: ["rooms", "secret"]), as: Self.alice, sink: RecordingSink(), now: 0) }
        _ = try await ns.write(.set(path: "/rooms/r1/public", value: false), as: .admin, now: 0)
        _ = try await ns.write(.set(path: "/rooms/r1/title", value: "later"), as: .admin, now: 0)
        #expect(sink.received == [.cancel(reason: "Permission denied")])
        #expect(sink.isFinished)
        #expect(ns.listenerCount == 0)
    }

    @Test func aRulesChangeCancelsListenersThatMayNoLongerRead() async throws {
        let ns = namespace()
        let sink = RecordingSink()
        _ = try await ns.listen(DataPath(keys: ["users", "alice"]), as: Self.alice, sink: sink, now: 0)
        ns.setRules(NamespaceRules(ruleset: try Ruleset(source: #"{"rules": {}}"#), source: "", origin: .uploaded))
        #expect(sink.received == [.cancel(reason: "Permission denied")])
    }

    @Test func aListenerThatCannotKeepUpIsCutOff() async throws {
        let ns = namespace()
        let sink = RecordingSink(capacity: 2)
        _ = try await ns.listen(DataPath(keys: ["users"]), as: .admin, sink: sink, now: 0)
        for i in 0..<5 { _ = try await ns.write(.set(path: "/users/u\(i)", value: "x"), as: .admin, now: 0) }
        #expect(sink.received.count == 2)
        #expect(sink.isFinished)
        #expect(ns.listenerCount == 0)
    }

    @Test func queryListenersSeeTheirSelection() async throws {
        let ns = namespace()
        let sink = RecordingSink()
        _ = try await ns.listen(DataPath(keys: ["users"]), query: Query(order: .key, limitToFirst: 1), as: .admin, sink: sink, now: 0)
        _ = try await ns.write(.set(path: "/users/m", value: "1"), as: .admin, now: 0)
        _ = try await ns.write(.set(path: "/users/z", value: "2"), as: .admin, now: 0)  // outside the first 1
        _ = try await ns.write(.set(path: "/users/a", value: "3"), as: .admin, now: 0)
        #expect(sink.received == [.put(path: "/", value: RenderedValue(json: #"{"m":"1"}"#)), .put(path: "/", value: RenderedValue(json: #"{"a":"3"}"#))])
    }
}

/// Coverage counted off the request path.
@Suite struct CoverageRecorderTests {
    @Test func decisionsAreCountedPerRule() async throws {
        let recorder = CoverageRecorder()
        let ns = Namespace(name: "c", rules: NamespaceTests.rules, coverage: recorder)
        _ = try await ns.write(.set(path: "/users/alice", value: "x"), as: NamespaceTests.alice, now: 0)
        await #expect(throws: ServerError.self) { try await ns.write(.set(path: "/users/bob", value: "x"), as: NamespaceTests.alice, now: 0) }
        _ = try await ns.write(.set(path: "/users/carol", value: "x"), as: .admin, now: 0)  // admin: no rules, not counted
        let task = Task { await recorder.run() }
        while recorder.pending > 0 { try await Task.sleep(for: .milliseconds(5)) }
        let json = recorder.json(namespace: "c", rules: ns.rules.loaded)
        task.cancel()
        recorder.stop()
        #expect(json.contains(#""namespace": "c""#))
        #expect(json.contains(#"{"rulePath": "/users/$uid/.write", "line": 3, "column": 47, "evaluations": 2, "true": 1, "false": 1, "error": 0"#), "\(json)")
        #expect(json.contains(#""dropped": 0"#))
    }
}
