import DatabaseRules
import Foundation
import RulesTestSupport
import Synchronization
import Testing

@testable import DatabaseServer

/// Random interleavings of what several connections do at once to one namespace: increments,
/// priority writes, transactions (compare-and-set loops), token refreshes and listens. Whatever
/// the order, every acknowledged write is in the final data and every listener hears every change
/// of what it watches, in commit order.
@Suite struct PipelinePropertyTests {
    static let rules = try! NamespaceRules(
        ruleset: Ruleset(source: """
            {"rules": {
              "counters": {"$c": {".read": "auth != null", ".write": "auth != null", ".validate": "newData.isNumber()"}}
            }}
            """), source: "", origin: .uploaded)

    /// A signed-in user whose token was issued at `issued` (a refresh gives a new `auth`).
    static func alice(issued: Int) -> Identity {
        .user(.user(uid: "alice", claims: ["iat": .number(Double(issued))]))
    }

    /// The counter value an event says the location holds.
    static func value(of event: DatabaseEvent) -> Double? {
        guard case .put("/", let value) = event else { return nil }
        return value.plain == "null" ? 0 : Double(value.plain)
    }

    /// What one simulated connection acknowledged.
    struct Tally: Sendable {
        var increments = 0
        var transactions = 0
        var listeners: [(sink: RecordingSink, open: Bool)] = []
    }

    static func connection(_ ns: Namespace, seed: UInt64, steps: Int) async throws -> Tally {
        var random = SplitMix64(seed: seed)
        var tally = Tally()
        var issued = Int(seed % 1000)
        var identity = alice(issued: issued)
        var listening: [(id: Int, sink: RecordingSink)] = []
        for _ in 0..<steps {
            switch random.below(6) {
            case 0, 1:
                let increment = DatabaseOperation.update(path: "/counters", values: [("c", .serverValue(.increment(1)))])
                if case .committed = try await ns.write(increment, as: identity, now: 0) { tally.increments += 1 }
            case 2:
                // A transaction: read, add one, write if nothing changed meanwhile; else again.
                while true {
                    let current = try await ns.read(DataPath(keys: ["counters", "c"]), as: identity, now: 0).node
                    let next = (current.flatMap { Double($0.exportJSON(includePriority: false)) } ?? 0) + 1
                    let write = DatabaseOperation.set(path: "/counters/c", value: .number(next))
                    if case .committed = try await ns.write(write, as: identity, now: 0, condition: .ifHash(NodeHash.of(current))) {
                        tally.transactions += 1
                        break
                    }
                }
            case 3:
                do {
                    _ = try await ns.setPriority(at: DataPath(keys: ["counters", "c"]), to: .number(Double(random.below(100))), as: identity, now: 0)
                } catch {
                    // Nothing to set a priority on yet.
                    #expect(error.kind == .badRequest)
                }
            case 4:
                if listening.isEmpty || random.chance(0.6) {
                    let sink = RecordingSink()
                    let (id, _) = try await ns.listen(DataPath(keys: ["counters", "c"]), as: identity, sink: sink, now: 0) {
                        .put(path: "/", value: RenderedValue(.node($0)))
                    }
                    listening.append((id, sink))
                } else {
                    let (id, sink) = listening.remove(at: random.below(listening.count))
                    ns.unlisten(id)
                    tally.listeners.append((sink, false))
                }
            default:
                // A token refresh: the same user, a new token.
                issued += 1
                identity = alice(issued: issued)
                for (id, _) in listening {
                    #expect(await ns.reidentify(id, as: identity, now: 0))
                }
            }
        }
        tally.listeners += listening.map { ($0.sink, true) }
        return tally
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func interleavedConnectionsLoseNoWriteAndDropNoEvent(seed: UInt64) async throws {
        let ns = Namespace(name: "p", rules: Self.rules)
        let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
            for connection in 0..<6 as Range<UInt64> {
                group.addTask { try await Self.connection(ns, seed: seed &* 1000 &+ connection, steps: 150) }
            }
            var all: [Tally] = []
            for try await tally in group { all.append(tally) }
            return all
        }
        let acknowledged = tallies.reduce(0) { $0 + $1.increments + $1.transactions }
        let final = ns.database.root.flatMap { DataNode.node($0, at: DataPath(keys: ["counters", "c"])) }
        let finalValue = final.flatMap { Double($0.exportJSON(includePriority: false)) } ?? 0
        #expect(finalValue == Double(acknowledged))
        for tally in tallies {
            for (sink, open) in tally.listeners {
                let values = sink.received.compactMap(Self.value(of:))
                #expect(values.count == sink.received.count, "every event of a leaf listener is a put of its value")
                // Every commit adds one or keeps the value (a priority write): a gap is a lost event.
                for (before, after) in zip(values, values.dropFirst()) {
                    #expect(after == before || after == before + 1, "a listener went from \(before) to \(after)")
                }
                if open { #expect(values.last == finalValue) }
            }
        }
    }

    /// Writes of one namespace that take long (here: its queue is held) do not stall reads of
    /// another, even with more of them than the machine has cores: rules are evaluated off the
    /// shared cooperative pool.
    @Test func aBusyNamespaceDoesNotStallAnother() async throws {
        let busy = (0..<(ProcessInfo.processInfo.activeProcessorCount * 2 + 2)).map { Namespace(name: "busy\($0)", rules: Self.rules) }
        let other = Namespace(name: "other", rules: Self.rules)
        let gate = DispatchSemaphore(value: 0)
        for ns in busy {
            ns.executor.enqueueWrite { gate.wait() }
        }
        // Writes queued behind the held ones wait without taking a thread of the pool.
        let waiting = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for ns in busy {
                    group.addTask { _ = try await ns.write(.set(path: "/counters/c", value: 1), as: .admin, now: 0) }
                }
                try await group.waitForAll()
            }
        }
        _ = try await other.write(.set(path: "/counters/c", value: 2), as: .admin, now: 0)
        let read = try await other.read(DataPath(keys: ["counters", "c"]), as: Self.alice(issued: 0), now: 0)
        #expect(read.node.map { $0.exportJSON(includePriority: false) } == "2")
        for _ in busy { gate.signal() }
        try await waiting.value
        #expect(busy.allSatisfy { $0.database.root != nil })
    }
}
