import DatabaseRules
import RulesTestSupport
import Testing

@testable import DatabaseServer

/// Indexed queries answer exactly what a scan of every child answers: on random collections
/// (numbers with ties, strings, booleans, null, objects and missing children mixed), through
/// random writes, for random orders, bounds (with key tie-breakers and exclusive ends) and limits,
/// and for listeners followed through those writes.
@Suite struct IndexedQueryPropertyTests {
    static let location = ["items"]
    static let orders: [Query.Order] = [.child(["score"]), .value, .child(["a", "b"]), .key]

    // MARK: - Random data

    /// A value a child or its indexed field may hold (nil: absent).
    static func primitive(_ random: inout SplitMix64) -> DataNode? {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return nil
        case 1: return DataNode(leaf: .bool(Bool.random(using: &random)))
        case 2, 3, 4: return DataNode(leaf: .number(Double(Int.random(in: -3...6, using: &random))))
        case 5: return DataNode(leaf: .number(Double(Int.random(in: 0...40, using: &random)) / 4))
        case 6, 7: return DataNode(leaf: .string(["", "a", "b", "ab", "é", "z", "10", "2"].randomElement(using: &random)!))
        case 8: return DataNode.object([("x", DataNode(leaf: .number(1)))])
        default: return DataNode(leaf: .number(Double(Int.random(in: 0...3, using: &random))))
        }
    }

    /// A child: a leaf, or an object with some of `score` and `a/b`.
    static func child(_ random: inout SplitMix64) -> DataNode? {
        if Int.random(in: 0..<4, using: &random) == 0 { return primitive(&random) }
        var members: [(String, DataNode)] = []
        if let score = primitive(&random) { members.append(("score", score)) }
        if let b = primitive(&random) { members.append(("a", DataNode.object([("b", b)])!)) }
        members.append(("name", DataNode(leaf: .string("n"))))
        return DataNode.object(members)
    }

    static let keyPool = (0..<40).map(String.init) + ["-1", "a", "b", "b0", "z", "0a", "é", "key", "k1", "k10", "k2", "00", "2147483648"]

    static func key(_ random: inout SplitMix64, count: Int) -> String {
        if Int.random(in: 0..<3, using: &random) == 0 { return keyPool.randomElement(using: &random)! }
        return "k\(Int.random(in: 0..<count, using: &random))"
    }

    static func collection(_ random: inout SplitMix64) -> DataNode? {
        let count = [0, 5, 70, 150, 400].randomElement(using: &random)!
        var members: [(String, DataNode)] = []
        for _ in 0..<count {
            if let c = child(&random) { members.append((key(&random, count: count + 10), c)) }
        }
        return DataNode.object(members)
    }

    static func bound(_ random: inout SplitMix64, order: Query.Order) -> Query.Bound {
        if order == .key {
            return .value(.string(key(&random, count: 100)))
        }
        guard let node = primitive(&random), let value = node.value else { return .null }
        return .value(value)
    }

    static func name(_ random: inout SplitMix64) -> Query.Name {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .min
        case 1: .max
        default: .key(key(&random, count: 100))
        }
    }

    static func query(_ random: inout SplitMix64) -> Query {
        let order = orders.randomElement(using: &random)!
        var q = Query(order: order)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: q.equalTo = bound(&random, order: order)
        case 1:
            q.startAt = bound(&random, order: order)
            q.startName = name(&random)
            q.startInclusive = Bool.random(using: &random)
        case 2:
            q.endAt = bound(&random, order: order)
            q.endName = name(&random)
            q.endInclusive = Bool.random(using: &random)
        default:
            q.startAt = bound(&random, order: order)
            q.endAt = bound(&random, order: order)
            q.startInclusive = Bool.random(using: &random)
            q.endInclusive = Bool.random(using: &random)
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: q.limitToFirst = Int.random(in: 0...12, using: &random)
        case 1: q.limitToLast = Int.random(in: 0...12, using: &random)
        case 2: if q.startAt == nil && q.endAt == nil && q.equalTo == nil { q.limitToLast = 3 }
        default: break
        }
        return q
    }

    /// A random write below the collection (or, rarely, of it).
    static func write(_ random: inout SplitMix64, count: Int) -> (keys: [String], node: DataNode?) {
        let k = key(&random, count: count + 10)
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return ([], collection(&random))
        case 1...5: return ([k], nil)
        case 6...10: return ([k, "score"], primitive(&random))
        case 11, 12: return ([k, "a", "b"], primitive(&random))
        case 13: return ([k, "name"], primitive(&random))
        default: return ([k], child(&random))
        }
    }

    static func same(_ a: DataNode?, _ b: DataNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): x.isEqual(to: y)
        default: false
        }
    }

    static func input(_ node: DataNode?) -> DataInput { node.map { DataInputConversion.input($0, priority: false) } ?? .null }

    static func text(_ node: DataNode?) -> String { node?.exportJSON() ?? "null" }

    // MARK: - Properties

    @Test(arguments: 0..<24)
    func indexedAnswersEqualTheScanThroughWrites(seed: UInt64) {
        var random = SplitMix64(seed: seed &* 7919 &+ 1)
        var root = DataNode.object([("items", Self.collection(&random) ?? DataNode(leaf: .number(1)))])
        var indexes = NamespaceIndexes()
        func indexAll() {
            for order in Self.orders where order != .key {
                let key = NamespaceIndexes.Key(location: Self.location, order: order)
                if !indexes.contains(key), let index = NamespaceIndexes.build(key, root: root) { indexes.install(index, for: key) }
            }
        }
        indexAll()
        for _ in 0..<60 {
            let count = DataNode.node(root, at: DataPath(keys: Self.location))?.childCount ?? 0
            // A single write, or a multi-path update of up to three.
            let shape: WriteShape
            let old = root
            if Bool.random(using: &random) {
                let w = Self.write(&random, count: count)
                root = DataNode.replacing(root, at: DataPath(keys: Self.location + w.keys), with: w.node)
                shape = .single(Self.location + w.keys)
            } else {
                var entries: [(keys: [String], node: DataNode?)] = []
                var seen: Set<String> = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let w = Self.write(&random, count: count)
                    guard !w.keys.isEmpty, seen.insert(w.keys[0]).inserted else { continue }
                    entries.append(w)
                }
                for e in entries { root = DataNode.replacing(root, at: DataPath(keys: Self.location + e.keys), with: e.node) }
                shape = .update(base: Self.location, entries: entries.map { ($0.keys.joined(separator: "/"), $0.keys) })
            }
            indexes.apply(shape, old: old, new: root)
            indexAll()
            let node = DataNode.node(root, at: DataPath(keys: Self.location))
            for _ in 0..<8 {
                let q = Self.query(&random)
                let indexed = indexes.select(q, at: Self.location, root: root)
                let scanned = q.select(node)
                #expect(Self.same(indexed, scanned), "seed \(seed): \(q): indexed \(Self.text(indexed)) scanned \(Self.text(scanned))")
            }
        }
    }

    @Test func anIndexIsMadeOnlyWhereItPaysAndDroppedWhenItsLocationIsReplaced() {
        let big = DataNode.object((0..<100).map { ("k\($0)", DataNode.object([("score", DataNode(leaf: .number(Double($0 % 7))))])!) })
        let small = DataNode.object((0..<10).map { ("k\($0)", DataNode(leaf: .number(Double($0)))) })
        let root = DataNode.object([("items", big!), ("few", small!)])
        let key = NamespaceIndexes.Key(location: ["items"], order: .child(["score"]))
        #expect(NamespaceIndexes.build(NamespaceIndexes.Key(location: ["few"], order: .value), root: root) == nil)
        var indexes = NamespaceIndexes()
        indexes.install(NamespaceIndexes.build(key, root: root)!, for: key)
        let next = DataNode.replacing(root, at: DataPath(keys: ["items", "k3", "score"]), with: DataNode(leaf: .number(99)))
        indexes.apply(.single(["items", "k3", "score"]), old: root, new: next)
        #expect(indexes.contains(key))
        let top = indexes.select(Query(order: .child(["score"]), limitToLast: 1), at: ["items"], root: next)
        #expect(top?.keys == ["k3"])
        let replaced = DataNode.replacing(next, at: DataPath(keys: ["items"]), with: small)
        indexes.apply(.single(["items"]), old: next, new: replaced)
        #expect(!indexes.contains(key))
        #expect(indexes.count == 0)
    }

    // MARK: - Through a namespace

    static let rules = try! NamespaceRules(
        ruleset: Ruleset(source: """
            {"rules": {
              "items": {".read": "auth != null", ".write": "auth != null", ".indexOn": ["score", ".value", "a/b"]}
            }}
            """), source: "", origin: .uploaded)

    /// REST reads and listeners, followed through random writes, see what a scan of the current
    /// data selects.
    @Test(arguments: 0..<6)
    func readsAndListenersThroughWritesEqualTheScan(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed &+ 101)
        let ns = Namespace(name: "t", rules: Self.rules)
        let user = Identity.user(.user(uid: "u"))
        var initial = Self.collection(&random)
        while (initial?.childCount ?? 0) < 70 { initial = Self.collection(&random) }
        _ = try await ns.write(.set(path: "/items", value: DataInputConversion.input(initial!, priority: false)), as: .admin, now: 0)
        var listeners: [(query: Query, sink: RecordingSink)] = []
        for _ in 0..<6 {
            var q = Self.query(&random)
            if q.order == .key { q.order = .child(["score"]); q.startAt = nil; q.endAt = nil; q.equalTo = nil }
            // Filtered listeners get the whole selection in each event.
            if !q.filters { q.limitToFirst = 5 }
            let sink = RecordingSink()
            _ = try await ns.listen(DataPath(keys: Self.location), query: q, as: user, sink: sink, now: 0) { node in
                .put(path: "/", value: RenderedValue(.node(node)))
            }
            listeners.append((q, sink))
        }
        var failed: Set<Int> = []
        for step in 0..<40 {
            let count = DataNode.node(ns.database.root, at: DataPath(keys: Self.location))?.childCount ?? 0
            let w = Self.write(&random, count: count)
            let path = "/" + (Self.location + w.keys).joined(separator: "/")
            if w.keys.isEmpty || Int.random(in: 0..<3, using: &random) > 0 {
                _ = try await ns.write(.set(path: path, value: Self.input(w.node)), as: user, now: 0)
            } else {
                _ = try await ns.write(
                    .update(path: "/items", values: [(w.keys.joined(separator: "/"), Self.input(w.node))]),
                    as: user, now: 0)
            }
            let node = DataNode.node(ns.database.root, at: DataPath(keys: Self.location))
            for (i, (q, sink)) in listeners.enumerated() where !failed.contains(i) {
                let expected = RenderedValue(.node(q.select(node))).plain
                // A query listener's selection is sent by the namespace's listener queue, after
                // the write returns: waited for, within a bound.
                func seen() -> String {
                    var last = "null"
                    for event in sink.received { if case .put("/", let value) = event { last = value.plain } }
                    return last
                }
                var waited = 0
                while seen() != expected, waited < 1000 {
                    try await Task.sleep(for: .milliseconds(10))
                    waited += 1
                }
                if seen() != expected {
                    failed.insert(i)
                    Issue.record("seed \(seed) step \(step): listener \(q) after writing \(w.keys) = \(Self.text(w.node))")
                }
            }
            let q = Self.query(&random)
            let read = try await ns.read(DataPath(keys: Self.location), query: q, as: user, now: 0).node
            #expect(Self.same(read, q.select(node)), "seed \(seed) step \(step): read \(q)")
        }
    }
}
