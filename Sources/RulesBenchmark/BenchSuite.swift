import DatabaseRules
import Foundation
import RulesCompiler
import RulesRuntime
import RulesSyntax

/// The built-in benchmark suite behind `rules bench --suite`: compile times, the blog example's
/// reads and writes on databases of several sizes, big validated writes, regex-heavy
/// validation, deep `parent()` chains, the hand-written Swift baseline, and heap allocations.
package struct BenchSuite: Sendable {
    /// The blog rules file (`rules-examples/blog/database.rules.json`).
    package var blogRulesPath: String
    /// A directory of rules files to time compiling (e.g. `Tests/Data/corpus`), if any.
    package var corpusPath: String?
    /// Database sizes in nodes, smallest first.
    package var sizes: [Int]
    /// The decision timer.
    package var timer: BenchTimer
    /// The compile timer.
    package var compileTimer: BenchTimer
    /// Nodes in the big write.
    package var bigWriteNodes: Int
    /// Bytes of the generated rules file.
    package var generatedRulesBytes: Int
    /// Only cases whose group or name contains this text run (all when nil).
    package var filter: String?

    /// Whether a case runs.
    func selected(_ group: String, _ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return group.contains(filter) || name.contains(filter)
    }

    /// Creates the suite; `quick` measures fewer database sizes.
    package init(blogRulesPath: String, corpusPath: String?, quick: Bool, timer: BenchTimer, compileTimer: BenchTimer) {
        self.blogRulesPath = blogRulesPath
        self.corpusPath = corpusPath
        self.sizes = quick ? [1_000, 100_000, 1_000_000] : [1_000, 10_000, 100_000, 1_000_000]
        self.timer = timer
        self.compileTimer = compileTimer
        self.bigWriteNodes = 10_000
        self.generatedRulesBytes = 256 * 1024
    }

    static let now: Double = 1_700_000_000_000
    static let alice = AuthValue.user(uid: "alice")
    static let bob = AuthValue.user(uid: "bob")

    /// Runs every case; `progress` is told what runs next.
    package func run(progress: (String) -> Void = { _ in }) throws(BenchError) -> [SuiteResult] {
        var out: [SuiteResult] = []
        out += try compileCases(progress)
        let blog = try Self.compile(path: blogRulesPath)
        out += blogCases(RulesEngine(ruleset: blog), progress)
        out += try workloadCases(progress)
        return out
    }

    // MARK: - Compile

    private func compileCases(_ progress: (String) -> Void) throws(BenchError) -> [SuiteResult] {
        let bench = SpecBenchmark(timer: timer, compileTimer: compileTimer)
        var out: [SuiteResult] = []
        var paths: [String] = []
        if let corpusPath { paths = Self.rulesFiles(in: corpusPath) }
        for path in paths where selected("compile", path) {
            progress("compile \(path)")
            switch bench.compile(path: path) {
            case .success(let t):
                out.append(SuiteResult(group: "compile", name: path, stats: t.stats, note: Self.kb(path)))
            case .failure(let e):
                out.append(SuiteResult(group: "compile", name: path, stats: BenchStatistics(samples: [], iterations: 0), note: e.message))
            }
        }
        // The target applies to the file as generated (sections repeat their expressions); the
        // variant without a repeated expression shows the cost of parsing and checking each one.
        for (title, distinct) in [("generated rules file", false), ("generated rules file, no expression repeated", true)] {
            let name = "\(title) (\(generatedRulesBytes / 1024) KB, in memory)"
            guard selected("compile", name) else { continue }
            progress("compile a \(title)")
            let text = SuiteRules.generated(bytes: generatedRulesBytes, distinct: distinct)
            let file = SourceFile(path: "generated-\(generatedRulesBytes / 1024)KB.rules.json", text: text)
            guard RulesCompiler.compile(file).ruleset != nil else { throw BenchError("the \(title) does not compile") }
            let t = bench.compile(file)
            out.append(SuiteResult(group: "compile", name: name, stats: t.stats,
                                   note: distinct ? nil : "target ≤ 25 ms: \(t.compileMs <= 25 ? "met" : "not met")"))
        }
        return out
    }

    /// Rules files below a directory (JSON files whose name mentions rules), sorted.
    static func rulesFiles(in directory: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let item = e.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            if name.hasSuffix(".json") && name.contains("rules") { found.append(directory + "/" + item) }
        }
        return found.sorted()
    }

    private static func kb(_ path: String) -> String? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
        return "\(size / 1024) KB"
    }

    static func compile(path: String) throws(BenchError) -> CompiledRuleset {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("\(path): cannot read the file") }
        guard let rs = RulesCompiler.compile(SourceFile(path: path, bytes: [UInt8](data))).ruleset else {
            throw BenchError("\(path): the rules do not compile")
        }
        return rs
    }

    // MARK: - Blog

    /// The blog operations, named.
    static func blogOperations(_ db: BlogDatabase) -> [(name: String, op: DatabaseOperation, auth: AuthValue)] {
        let p = db.postKey
        return [
            ("read /posts/\(p)", .read(path: "/posts/\(p)"), bob),
            ("set /posts/\(p)/title (leaf, .write and .validate chain)", .set(path: "/posts/\(p)/title", value: "A new title"), alice),
            ("set /posts/\(p)/title by another user (denied by .write)", .set(path: "/posts/\(p)/title", value: "A new title"), bob),
            ("update / star, 2 paths with increment", .update(path: "/", values: [
                ("posts/\(p)/stars/bob", true), ("posts/\(p)/starCount", .increment(1)),
            ]), bob),
            ("update / star, 4 paths with the fan-out copy", .update(path: "/", values: [
                ("posts/\(p)/stars/bob", true), ("posts/\(p)/starCount", .increment(1)),
                ("user-posts/alice/\(p)/stars/bob", true), ("user-posts/alice/\(p)/starCount", .increment(1)),
            ]), bob),
            ("delete /posts/\(p)", .delete(path: "/posts/\(p)"), alice),
        ]
    }

    /// The set of `blogOperations`, decided and then applied to a database that owns its tree
    /// (``RulesEngine/apply(_:to:auth:now:scratch:)``), as a server that keeps no old versions
    /// applies it: the nodes on the path are written in place, not copied.
    static let appliedSetName = "set /posts/$p/title, applied to a database that owns its tree"

    static func appliedSet(_ db: BlogDatabase) -> DatabaseOperation {
        .set(path: "/posts/\(db.postKey)/title", value: "A new title")
    }

    /// A blog database of `size` nodes whose tree nothing else holds (built apart from the
    /// suite's, which its decisions share). Its posts are shared with their copies under
    /// `user-posts`, so the first write copies the written post; the later ones copy nothing.
    static func ownedTree(_ size: Int) -> DataNode? {
        BlogDatabase(nodes: size).root
    }

    private func blogCases(_ engine: RulesEngine, _ progress: (String) -> Void) -> [SuiteResult] {
        var out: [SuiteResult] = []
        var medians: [[Double]] = []
        var names: [String] = []
        var smallest: BlogDatabase?
        var largest: BlogDatabase?
        for size in sizes where Self.blogOperations(BlogDatabase(nodes: 12)).contains(where: { selected("blog, \(Self.power(size))", $0.name) })
            || selected("blog, \(Self.power(size))", Self.appliedSetName) {
            progress("build a blog database of \(size) nodes")
            let db = BlogDatabase(nodes: size)
            if smallest == nil { smallest = db } else { largest = db }
            let root: DataNode? = db.root
            let group = "blog, \(Self.power(size)) nodes (\(db.root.count) nodes, \(db.postCount) posts)"
            var row: [Double] = []
            names = []
            for (name, op, auth) in Self.blogOperations(db) where selected("blog, \(Self.power(size))", name) {
                progress("\(group): \(name)")
                let decision = engine.decide(op, on: root, auth: auth, now: Self.now)
                var scratch = DecisionScratch()
                let stats = timer.measure { engine.decide(op, on: root, auth: auth, now: Self.now, scratch: &scratch) }
                let allocations = BenchTimer.allocations { engine.decide(op, on: root, auth: auth, now: Self.now, scratch: &scratch) }
                out.append(SuiteResult(group: group, name: name + (decision.allowed ? "" : " (DENIED)"), stats: stats, allocations: allocations))
                row.append(stats.median)
                names.append(name)
                if size == sizes.first, case .read = op {
                    // The plain API makes its scratch storage per call.
                    let fresh = timer.measure { engine.decide(op, on: root, auth: auth, now: Self.now) }
                    let freshAllocations = BenchTimer.allocations { engine.decide(op, on: root, auth: auth, now: Self.now) }
                    out.append(SuiteResult(group: group, name: name + ", new scratch per call", stats: fresh, allocations: freshAllocations))
                }
            }
            if selected("blog, \(Self.power(size))", Self.appliedSetName) {
                progress("\(group): \(Self.appliedSetName)")
                var owned = Self.ownedTree(size)
                let op = Self.appliedSet(db)
                var scratch = DecisionScratch()
                let allowed = engine.apply(op, to: &owned, auth: Self.alice, now: Self.now, scratch: &scratch).allowed
                // Each call returns only whether it was allowed: a decision kept alive would hold
                // the tree, and the next write would copy it.
                let stats = timer.measure { engine.apply(op, to: &owned, auth: Self.alice, now: Self.now, scratch: &scratch).allowed }
                let allocations = BenchTimer.allocations { engine.apply(op, to: &owned, auth: Self.alice, now: Self.now, scratch: &scratch).allowed }
                out.append(SuiteResult(group: group, name: Self.appliedSetName + (allowed ? "" : " (DENIED)"), stats: stats, allocations: allocations))
                row.append(stats.median)
                names.append(Self.appliedSetName)
            }
            medians.append(row)
        }
        if medians.count > 1, let first = medians.first, let last = medians.last, first.count == last.count {
            for (i, name) in names.enumerated() {
                let ratios = medians.map { Self.fixed($0[i] / Swift.max(first[i], 1e-9)) }
                out.append(SuiteResult(group: "database size: median at each size / at \(Self.power(sizes[0]))", name: name,
                                       stats: BenchStatistics(samples: [last[i]], iterations: 0),
                                       note: "ratios " + ratios.joined(separator: " / ")))
            }
        }
        if let small = smallest, let large = largest, let first = sizes.first, let last = sizes.last {
            out += alternatingSizeCases(engine, (first, small), (last, large), progress)
        }
        // `--filter native` runs the baseline pairs alone, on the smallest database.
        if selected("native", ""), let size = sizes.first {
            out += nativeCases(engine, smallest ?? BlogDatabase(nodes: size), progress)
        }
        return out
    }

    /// Each blog operation on the smallest and the largest database, in alternating rounds: the
    /// ratio of the sizes' times with the machine's drift during the run cancelled (the
    /// per-size medians above are measured seconds to minutes apart).
    private func alternatingSizeCases(_ engine: RulesEngine, _ smallest: (size: Int, db: BlogDatabase),
                                      _ largest: (size: Int, db: BlogDatabase), _ progress: (String) -> Void) -> [SuiteResult] {
        let small = smallest.db, large = largest.db
        let group = "database size, alternating rounds: \(Self.power(largest.size)) / \(Self.power(smallest.size))"
        var out: [SuiteResult] = []
        let operations = zip(Self.blogOperations(small), Self.blogOperations(large))
        for (a, b) in operations where selected("blog, \(Self.power(smallest.size))", a.name) {
            progress("\(group): \(a.name)")
            var scratchA = DecisionScratch(), scratchB = DecisionScratch()
            let rootA: DataNode? = small.root, rootB: DataNode? = large.root
            let (_, largeStats, ratios) = timer.measureAlternating(
                { engine.decide(a.op, on: rootA, auth: a.auth, now: Self.now, scratch: &scratchA) },
                { engine.decide(b.op, on: rootB, auth: b.auth, now: Self.now, scratch: &scratchB) })
            out.append(SuiteResult(group: group, name: b.name, stats: largeStats,
                                   note: "ratio \(Self.fixed(ratios.median)) (±\(BenchReport.fixed(ratios.spreadPercent, 1))%)"))
        }
        if selected("blog, \(Self.power(smallest.size))", Self.appliedSetName) {
            progress("\(group): \(Self.appliedSetName)")
            var ownedA = Self.ownedTree(smallest.size), ownedB = Self.ownedTree(largest.size)
            let opA = Self.appliedSet(small), opB = Self.appliedSet(large)
            var scratchA = DecisionScratch(), scratchB = DecisionScratch()
            let (_, largeStats, ratios) = timer.measureAlternating(
                { engine.apply(opA, to: &ownedA, auth: Self.alice, now: Self.now, scratch: &scratchA).allowed },
                { engine.apply(opB, to: &ownedB, auth: Self.alice, now: Self.now, scratch: &scratchB).allowed })
            out.append(SuiteResult(group: group, name: Self.appliedSetName, stats: largeStats,
                                   note: "ratio \(Self.fixed(ratios.median)) (±\(BenchReport.fixed(ratios.spreadPercent, 1))%)"))
        }
        return out
    }

    private func nativeCases(_ engine: RulesEngine, _ db: BlogDatabase, _ progress: (String) -> Void) -> [SuiteResult] {
        let root: DataNode? = db.root
        let p = db.postKey
        let group = "native Swift baseline (blog, \(db.root.count) nodes): VM / native"
        var out: [SuiteResult] = []
        var scratch = DecisionScratch()
        func pair(_ name: String, vm: () -> Bool, native: () -> Bool) {
            progress("\(group): \(name)")
            let agree = vm() == native()
            let v = timer.measure(vm)
            let n = timer.measure(native)
            out.append(SuiteResult(group: group, name: "native " + name, stats: n))
            out.append(SuiteResult(group: group, name: "VM " + name, stats: v,
                                   note: "ratio \(Self.fixed(v.median / Swift.max(n.median, 1e-9)))" + (agree ? "" : " (DECISIONS DIFFER)")))
        }
        let readPath = "/posts/\(p)"
        pair("read", vm: { engine.decide(.read(path: readPath), on: root, auth: Self.bob, now: Self.now, scratch: &scratch).allowed },
             native: { NativeBlogRules.read(readPath, root: root, auth: Self.bob) })
        let titlePath = "/posts/\(p)/title"
        let title: DataInput = "A new title"
        pair("set title", vm: { engine.decide(.set(path: titlePath, value: title), on: root, auth: Self.alice, now: Self.now, scratch: &scratch).allowed },
             native: { NativeBlogRules.setPostField(titlePath, value: title, root: root, auth: Self.alice, now: Self.now).allowed })
        pair("denied set title (not the author)", vm: { engine.decide(.set(path: titlePath, value: title), on: root, auth: Self.bob, now: Self.now, scratch: &scratch).allowed },
             native: { NativeBlogRules.setPostField(titlePath, value: title, root: root, auth: Self.bob, now: Self.now).allowed })
        let star: [(String, DataInput)] = [("posts/\(p)/stars/bob", true), ("posts/\(p)/starCount", .increment(1))]
        pair("star update (2 paths)", vm: { engine.decide(.update(path: "/", values: star), on: root, auth: Self.bob, now: Self.now, scratch: &scratch).allowed },
             native: { NativeBlogRules.star(star, root: root, auth: Self.bob, now: Self.now).allowed })
        return out
    }

    // MARK: - Workload rules

    private func workloadCases(_ progress: (String) -> Void) throws(BenchError) -> [SuiteResult] {
        guard let rs = RulesCompiler.compile(source: SuiteRules.workload, path: "suite.rules.json").ruleset else {
            throw BenchError("the suite's workload rules do not compile")
        }
        let engine = RulesEngine(ruleset: rs)
        let user = AuthValue.user(uid: "u1")
        var out: [SuiteResult] = []
        func time(_ group: String, _ name: String, _ op: DatabaseOperation, on root: @autoclosure () -> DataNode?, counting: Bool = true) {
            guard selected(group, name) else { return }
            let root = root()
            progress("\(group): \(name)")
            let allowed = engine.decide(op, on: root, auth: user, now: Self.now).allowed
            var scratch = DecisionScratch()
            let stats = timer.measure { engine.decide(op, on: root, auth: user, now: Self.now, scratch: &scratch) }
            let allocations = counting ? BenchTimer.allocations(calls: 10) { engine.decide(op, on: root, auth: user, now: Self.now, scratch: &scratch) } : nil
            out.append(SuiteResult(group: group, name: name + (allowed ? "" : " (DENIED)"), stats: stats, allocations: allocations))
        }
        // Big writes: items of three nodes each, on databases of several sizes.
        let items = Swift.max(1, bigWriteNodes / 3)
        var pairs: [(String, DataInput)] = []
        pairs.reserveCapacity(items)
        for i in 0..<items { pairs.append(("i\(i)", ["name": .string("item \(i)"), "n": .number(Double(i))])) }
        let big = DataInput.object(pairs)
        for size in sizes {
            time("big write (\(items * 3 + 1) nodes under a validated schema)", "set /items on \(Self.power(size)) nodes", .set(path: "/items", value: big),
                 on: BlogDatabase(nodes: size).root)
        }
        // Regexes.
        let profile: DataInput = [
            "email": "someone.else@example.co.uk", "phone": "+441234567890", "website": "https://example.com/some/page",
            "zip": "12345-6789", "handle": "someone_else",
        ]
        time("regex-heavy validation", "set /profiles/u1 (5 regexes)", .set(path: "/profiles/u1", value: profile), on: nil)
        // Deep parent() chains.
        let deepPath = "/deep/a/b/c/d/e/f/g/h/i/value"
        let config = try? DataNode.fromJSON(#"{"config": {"open": true, "owner": "u1"}}"#)
        time("deep parent() chains (11 levels)", "set \(deepPath)", .set(path: deepPath, value: 7), on: config)
        return out
    }

    // MARK: - Formatting

    static func power(_ n: Int) -> String {
        var e = 0, v = n
        while v >= 10 && v % 10 == 0 { v /= 10; e += 1 }
        return v == 1 ? "10^\(e)" : String(n)
    }

    static func fixed(_ v: Double) -> String { BenchReport.fixed(v, 2) }
}
