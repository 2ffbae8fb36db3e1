import DatabaseRules
import Foundation
import RulesTestSupport
import Testing

@testable import DatabaseServer

/// `rules serve --data`: what is committed is stored, restored exactly, compacted, and the
/// directory is used by one server at a time.
@Suite struct DurableStoreTests {
    static let rules = try! NamespaceRules(
        ruleset: Ruleset(source: #"{"rules": {".read": true, ".write": true}}"#), source: "", origin: .file("database.rules.json"))

    /// A registry on durable storage in `directory`, restored from what is there.
    static func open(_ directory: String, compactionBytes: Int = 16 * 1024 * 1024) throws -> (NamespaceRegistry, DurableStore) {
        let (store, contents) = try DurableStore.open(directory: directory, compactionBytes: compactionBytes)
        let registry = NamespaceRegistry(defaultName: "demo", rules: rules, store: store)
        #expect(registry.restore(contents).isEmpty)
        return (registry, store)
    }

    static func write(_ ns: Namespace, _ operation: DatabaseOperation, now: Double = 1_700_000_000_000) async throws {
        _ = try await ns.writeDurably(operation, as: .admin, now: now)
    }

    @Test func everyKindOfWriteIsRestoredExactly() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let expected: String
        let uploaded = #"{"rules": {".read": "auth != null"}}"#
        do {
            let (registry, _) = try Self.open(dir.path)
            let ns = registry.namespace("demo")
            try await Self.write(ns, .set(path: "/users/alice", value: try DataInputReader.read(json: #"{"name": "Alice", ".priority": 3, "age": 30.5}"#)))
            try await Self.write(ns, .update(path: "/", values: [("posts/p1/stars", .serverValue(.increment(2))), ("posts/p1/at", .serverValue(.timestamp))]))
            try await Self.write(ns, .push(path: "/log", value: "first", key: "-N0001"))
            try await Self.write(ns, .set(path: "/gone", value: "x"))
            try await Self.write(ns, .delete(path: "/gone"))
            try await Self.write(ns, .update(path: "/users", values: [("alice/age", 31), ("bob", try DataInputReader.read(json: #"{"name": "Bob"}"#))]))
            let other = registry.namespace("other-db")
            try await Self.write(other, .set(path: "/x", value: try DataInputReader.read(json: #"{"y": [1, 2, {"z": true}]}"#)))
            try await other.setRules(NamespaceRules(ruleset: try Ruleset(source: uploaded), source: uploaded, origin: .uploaded)).wait()
            expected = ns.database.exportJSON(includePriority: true)
            await registry.store?.close()
            #expect(expected.contains(#""at":1700000000000"#))
            #expect(expected.contains(#""stars":2"#))
        }
        let (registry, store) = try Self.open(dir.path)
        #expect(registry.all.map(\.name) == ["demo", "other-db"])
        #expect(registry.namespace("demo").database.exportJSON(includePriority: true) == expected)
        #expect(registry.namespace("other-db").database.exportJSON() == #"{"x":{"y":[1,2,{"z":true}]}}"#)
        #expect(registry.namespace("other-db").rules.origin == .uploaded)
        #expect(registry.namespace("other-db").rules.source == uploaded)
        #expect(registry.namespace("demo").rules.origin == .file("database.rules.json"))
        #expect(store.statistics.transactions == 0)
    }

    @Test func aStaleOrEmptyWriteStoresNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (registry, store) = try Self.open(dir.path)
        let ns = registry.namespace("demo")
        try await Self.write(ns, .delete(path: "/nothing/here"))
        #expect(store.statistics.changes == 0)
        try await Self.write(ns, .set(path: "/a", value: 1))
        #expect(store.statistics.changes == 1)
        guard case .stale = try await ns.write(.set(path: "/a", value: 2), as: .admin, now: 0, condition: .ifMatch("stale")) else {
            Issue.record("a stale condition was committed"); return
        }
        #expect(store.statistics.changes == 1)
    }

    @Test func theLogIsCompactedIntoSnapshotsAndTheFileStaysSmall() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let expected: String
        do {
            let (registry, store) = try Self.open(dir.path, compactionBytes: 4096)
            let ns = registry.namespace("demo")
            let payload = String(repeating: "x", count: 1000)
            for i in 0..<2000 {
                try await Self.write(ns, .set(path: "/items/k\(i % 50)", value: .primitive(.string(payload + "\(i)"))))
            }
            #expect(store.statistics.snapshots > 10)
            expected = ns.database.exportJSON(includePriority: true)
            await store.close()
        }
        let size = try FileManager.default.attributesOfItem(atPath: dir.file("rules-serve.sqlite").path)[.size] as? Int ?? 0
        // 2 MB were written over 50 keys of 1 KB: the file holds the data and a bounded log.
        #expect(size < 1_000_000)
        let (registry, _) = try Self.open(dir.path, compactionBytes: 4096)
        #expect(registry.namespace("demo").database.exportJSON(includePriority: true) == expected)
    }

    @Test func concurrentWritersAreGroupCommittedAndAllAcknowledgedWritesSurvive() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let expected: String
        let transactions: Int
        do {
            let (registry, store) = try Self.open(dir.path)
            let ns = registry.namespace("demo")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for i in 0..<100 {
                            try await Self.write(ns, .update(path: "/", values: [("w\(writer)/a", .primitive(.number(Double(i)))), ("w\(writer)/b", .primitive(.number(Double(i))))]))
                        }
                    }
                }
                try await group.waitForAll()
            }
            expected = ns.database.exportJSON()
            transactions = store.statistics.transactions
            #expect(store.statistics.changes == 800)
            await store.close()
        }
        #expect(transactions <= 800)
        let (registry, _) = try Self.open(dir.path)
        #expect(registry.namespace("demo").database.exportJSON() == expected)
        for writer in 0..<8 {
            #expect(registry.namespace("demo").database.value(at: "/w\(writer)/b") == .number(99))
        }
    }

    @Test func anImportIsStoredAsTheNamespacesNewData() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let (registry, _) = try Self.open(dir.path)
            try await Self.write(registry.namespace("demo"), .set(path: "/old", value: 1))
            try await registry.namespace("demo").load(try Database(json: #"{"new": {".value": 2, ".priority": 1}}"#)).wait()
            await registry.store?.close()
        }
        let (registry, _) = try Self.open(dir.path)
        #expect(registry.namespace("demo").database.exportJSON(includePriority: true) == #"{"new":{".value":2,".priority":1}}"#)
    }

    @Test func oneServerAtATimeAndForeignFilesAreRefused() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, first) = try Self.open(dir.path)
        #expect(throws: DurableStore.StoreError.self) { _ = try DurableStore.open(directory: dir.path) }
        do {
            _ = try DurableStore.open(directory: dir.path)
        } catch {
            #expect(error.description.contains("is in use by another server"))
        }
        _ = first

        let other = try TemporaryDirectory()
        defer { other.remove() }
        try await other.write("rules-serve.sqlite", String(repeating: "not a database\n", count: 100))
        do {
            _ = try DurableStore.open(directory: other.path)
            Issue.record("opened a file that is not a database")
        } catch {
            #expect(error.description.contains("is not a rules serve database"))
        }
    }

    @Test func anEmptyOrMissingStoreBesideItsLogIsRefusedAndLeftAsItIs() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let (registry, _) = try Self.open(dir.path)
            try await Self.write(registry.namespace("demo"), .set(path: "/kept", value: "yes"))
            // The log is checkpointed on close; copy it as it stands while the store is open.
            let log = try Data(contentsOf: dir.file("rules-serve.sqlite-wal"))
            #expect(!log.isEmpty)
            await registry.store?.close()
            try log.write(to: dir.file("saved-wal"))
        }
        let file = dir.file("rules-serve.sqlite").path
        let wal = file + "-wal"
        try? FileManager.default.removeItem(atPath: wal)
        try FileManager.default.copyItem(atPath: dir.file("saved-wal").path, toPath: wal)
        let logSize = try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int)
        for missing in [false, true] {
            if missing {
                try FileManager.default.removeItem(atPath: file)
            } else {
                try Data().write(to: URL(fileURLWithPath: file))  // truncated to 0 bytes
            }
            do {
                _ = try DurableStore.open(directory: dir.path)
                Issue.record("opened \(missing ? "a missing" : "an empty") store beside its log")
            } catch {
                let text = error.description
                #expect(text.hasPrefix("\(file) \(missing ? "is missing" : "is empty (0 bytes)"), but its write-ahead log \(wal) holds \(logSize) bytes"), "\(text)")
                #expect(text.contains("Nothing was opened or changed. Restore"))
            }
            // Both files are as they were: nothing was created, truncated or checkpointed.
            #expect((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) == logSize)
            #expect(FileManager.default.fileExists(atPath: file) == !missing)
            if !missing { #expect((try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) == 0) }
        }
        // An empty log beside an empty store is a new store, not a loss.
        try Data().write(to: URL(fileURLWithPath: wal))
        let (registry, _) = try Self.open(dir.path)
        #expect(registry.all.isEmpty)
    }
}
