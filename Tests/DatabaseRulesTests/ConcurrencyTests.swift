import DatabaseRules
import Foundation
import Testing

/// One compiled ruleset decides from many threads at once, with the same results as one thread.
@Suite struct ConcurrencyTests {
    @Test func eightThreadsAgreeWithASequentialRun() async throws {
        let rules = try BlogExample.ruleset()
        let db = BlogExample.withPost(rules)
        var starred = db
        starred.commit(rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now))
        let cases: [(DatabaseOperation, Database, AuthValue)] = [
            (BlogExample.star("bob"), db, BlogExample.bob),
            (BlogExample.star("bob"), starred, BlogExample.bob),
            (BlogExample.star("bob", delta: -1), starred, BlogExample.bob),
            (BlogExample.star("bob", delta: -1), starred, BlogExample.carol),
            (BlogExample.star("carol", delta: 2), db, BlogExample.carol),
            (.read(path: "/posts/p1"), db, .null),
            (.read(path: "/posts/p1"), db, BlogExample.alice),
            (.delete(path: "/posts/p1/starCount"), db, BlogExample.alice),
            (BlogExample.createPost, Database(), BlogExample.alice),
            (.set(path: "/users/bob", value: ["username": "bob", "email": "bob@example.com"]), db, BlogExample.bob),
            (.set(path: "/users/bob", value: ["username": "bob", "email": "not an email"]), db, BlogExample.bob),
        ]
        let expected = cases.map { rules.decide($0.0, on: $0.1, auth: $0.2, now: BlogExample.now).allowed }
        #expect(expected.contains(true) && expected.contains(false))
        let rounds = 200
        let results = await withTaskGroup(of: [Bool].self) { group in
            for t in 0..<8 {
                group.addTask {
                    var out: [Bool] = []
                    for i in 0..<rounds {
                        let c = cases[(i + t) % cases.count]
                        out.append(rules.decide(c.0, on: c.1, auth: c.2, now: BlogExample.now).allowed == expected[(i + t) % cases.count])
                    }
                    return out
                }
            }
            var all: [[Bool]] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0.count == rounds && $0.allSatisfy { $0 } })
    }
}
