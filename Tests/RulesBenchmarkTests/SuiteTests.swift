import CMallocCounter
import DatabaseRules
import RulesCompiler
import RulesRuntime
import RulesTestSupport
import Testing

@testable import RulesBenchmark

/// The suite's inputs: databases, generated rules, the hand-written baseline.
@Suite struct SuiteTests {
    static let blogRules = TestPaths.examples.appendingPathComponent("blog/database.rules.json").path

    @Test(arguments: [1_000, 20_000])
    func blogDatabaseHasAboutTheRequestedSize(nodes: Int) throws {
        let db = BlogDatabase(nodes: nodes)
        #expect(abs(db.root.count - nodes) <= nodes / 10 + 20)
        let post = try #require(db.root.descendant(["posts", db.postKey]))
        #expect(post.child("uid")?.value == .string("alice"))
        #expect(db.root.descendant(["user-posts", "alice", db.postKey]) != nil)
    }

    @Test func generatedRulesReachTheSizeAndCompile() {
        let text = SuiteRules.generated(bytes: 20_000)
        #expect(text.utf8.count >= 20_000)
        #expect(RulesCompiler.compile(source: text).ruleset != nil)
        let distinct = SuiteRules.generated(bytes: 20_000, distinct: true)
        #expect(distinct.utf8.count >= 20_000)
        #expect(RulesCompiler.compile(source: distinct).ruleset != nil)
        #expect(RulesCompiler.compile(source: SuiteRules.workload).ruleset != nil)
    }

    /// The baseline must decide as the VM does, or the ratio means nothing.
    @Test func nativeBaselineAgreesWithTheVM() throws {
        let rules = try BenchSuite.compile(path: Self.blogRules)
        let engine = RulesEngine(ruleset: rules)
        let db = BlogDatabase(nodes: 2_000)
        let p = db.postKey
        let now = BenchSuite.now
        for auth in [BenchSuite.alice, BenchSuite.bob, AuthValue.null] {
            for path in ["/posts/\(p)", "/posts", "/users/bob", "/other/x"] {
                #expect(NativeBlogRules.read(path, root: db.root, auth: auth) == engine.decide(.read(path: path), on: db.root, auth: auth, now: now).allowed)
            }
            for (path, value) in [("/posts/\(p)/title", "T" as DataInput), ("/posts/\(p)/title", 5), ("/posts/\(p)/body", "B"), ("/posts/\(p)/title", nil)] {
                let vm = engine.decide(.set(path: path, value: value), on: db.root, auth: auth, now: now)
                let native = NativeBlogRules.setPostField(path, value: value, root: db.root, auth: auth, now: now)
                #expect(vm.allowed == native.allowed)
                if vm.allowed { #expect(vm.newRoot?.isEqual(to: try #require(native.newRoot)) == true) }
            }
            for (delta, mark) in [(1.0, true as DataInput), (2.0, true), (1.0, false)] {
                let values: [(String, DataInput)] = [("posts/\(p)/stars/bob", mark), ("posts/\(p)/starCount", .increment(delta))]
                let vm = engine.decide(.update(path: "/", values: values), on: db.root, auth: auth, now: now)
                let native = NativeBlogRules.star(values, root: db.root, auth: auth, now: now)
                #expect(vm.allowed == native.allowed)
                if vm.allowed { #expect(vm.newRoot?.isEqual(to: try #require(native.newRoot)) == true) }
            }
        }
    }

    @Test func blogOperationsAreDecidedAsNamed() throws {
        let engine = RulesEngine(ruleset: try BenchSuite.compile(path: Self.blogRules))
        let db = BlogDatabase(nodes: 1_000)
        for (name, op, auth) in BenchSuite.blogOperations(db) {
            // Every operation is allowed but the one named as denied.
            #expect(engine.decide(op, on: db.root, auth: auth, now: BenchSuite.now).allowed == !name.contains("denied"), "\(name)")
        }
    }

    @Test func powersOfTen() {
        #expect(BenchSuite.power(1_000) == "10^3")
        #expect(BenchSuite.power(1_000_000) == "10^6")
        #expect(BenchSuite.power(2_000) == "2000")
    }

    @Test func allocationCounterCountsWhenLinked() {
        // The counting allocator is linked into this test binary, as into rules-profile; once
        // its counter is installed, an allocation must move it.
        AllocationCounter.install { rules_malloc_count() }
        if AllocationCounter.isAvailable {
            let a = BenchTimer.allocations(calls: 10) { [Int](repeating: 1, count: 100) }
            #expect(a != nil && a! >= 1)
        } else {
            #expect(BenchTimer.allocations { 1 } == nil)
        }
    }
}
