import DatabaseRules
import Testing

/// The double-star rules of the blog example (spec §10, `rules-examples/blog`): stars move the counter
/// by exactly one, in the same request, and every attack on the counter is denied.
@Suite struct BlogExampleTests {
    let rules: Ruleset
    init() throws { rules = try BlogExample.ruleset() }

    @Test func authorCreatesAPostWithItsFanOutCopy() {
        var db = Database()
        let d = rules.decide(BlogExample.createPost, on: db, auth: BlogExample.alice, now: BlogExample.now)
        #expect(d.allowed, "\(d.reason ?? "")")
        db.commit(d)
        #expect(db.node(at: "/posts/p1/starCount")?.value == .number(0))
        #expect(db.node(at: "/user-posts/alice/p1/title")?.value == .string("Hello"))
    }

    @Test func someoneElseCannotCreateAPostInAlicesName() {
        let d = rules.decide(BlogExample.createPost, on: Database(), auth: BlogExample.bob, now: BlogExample.now)
        #expect(!d.allowed)
    }

    @Test func starAndUnstarOnceWithIncrement() {
        var db = BlogExample.withPost(rules)
        let star = rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(star.allowed, "\(star.reason ?? "")")
        db.commit(star)
        #expect(db.node(at: "/posts/p1/starCount")?.value == .number(1))
        #expect(db.node(at: "/user-posts/alice/p1/starCount")?.value == .number(1))
        #expect(db.node(at: "/posts/p1/stars/bob")?.value == .bool(true))

        let unstar = rules.decide(BlogExample.star("bob", delta: -1), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(unstar.allowed, "\(unstar.reason ?? "")")
        db.commit(unstar)
        #expect(db.node(at: "/posts/p1/starCount")?.value == .number(0))
        #expect(db.node(at: "/posts/p1/stars") == nil)
        #expect(db.node(at: "/user-posts/alice/p1/stars") == nil)
    }

    @Test func twoUsersStarInTurn() {
        var db = BlogExample.withPost(rules)
        let first = db.commit(rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now))
        let second = db.commit(rules.decide(BlogExample.star("carol"), on: db, auth: BlogExample.carol, now: BlogExample.now))
        #expect(first && second)
        #expect(db.node(at: "/posts/p1/starCount")?.value == .number(2))
    }

    @Test func doubleStarIsDenied() {
        var db = BlogExample.withPost(rules)
        db.commit(rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now))
        let again = rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(!again.allowed)
        #expect(again.newRoot === db.root, "a denied update leaves the tree as it was")
    }

    @Test func counterMovedAloneIsDenied() {
        let db = BlogExample.withPost(rules)
        let d = rules.decide(.set(path: "/posts/p1/starCount", value: .increment(1)), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(!d.allowed)
    }

    @Test func counterMovedByTwoIsDenied() {
        let db = BlogExample.withPost(rules)
        let d = rules.decide(BlogExample.star("bob", delta: 2), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(!d.allowed)
    }

    @Test func starWithoutTheCounterIsDenied() {
        let db = BlogExample.withPost(rules)
        let d = rules.decide(.set(path: "/posts/p1/stars/bob", value: true), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(!d.allowed)
    }

    @Test func copyOutOfStepWithTheCanonicalCounterIsDenied() {
        let db = BlogExample.withPost(rules)
        let d = rules.decide(BlogExample.star("bob", delta: 1, copyDelta: 2), on: db, auth: BlogExample.bob, now: BlogExample.now)
        #expect(!d.allowed)
    }

    @Test func removingSomeoneElsesStarIsDenied() {
        var db = BlogExample.withPost(rules)
        db.commit(rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now))
        let d = rules.decide(BlogExample.star("bob", delta: -1), on: db, auth: BlogExample.carol, now: BlogExample.now)
        #expect(!d.allowed)
    }

    @Test func overwritingTheStarsMapIsDenied() {
        var db = BlogExample.withPost(rules)
        db.commit(rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now))
        let d = rules.decide(.set(path: "/posts/p1/stars", value: ["bob": true, "carol": true]), on: db, auth: BlogExample.carol, now: BlogExample.now)
        #expect(!d.allowed)
        let asAuthor = rules.decide(.set(path: "/posts/p1/stars", value: nil), on: db, auth: BlogExample.alice, now: BlogExample.now)
        #expect(!asAuthor.allowed)
    }

    @Test func deletingTheCounterIsDenied() {
        let db = BlogExample.withPost(rules)
        for who in [BlogExample.alice, BlogExample.bob] {
            let d = rules.decide(.delete(path: "/posts/p1/starCount"), on: db, auth: who, now: BlogExample.now)
            #expect(!d.allowed)
        }
    }

    @Test func authorDeletesPostAndCopyTogether() {
        let db = BlogExample.withPost(rules)
        let both: DatabaseOperation = .update(path: "/", values: [("posts/p1", nil), ("user-posts/alice/p1", nil)])
        let d = rules.decide(both, on: db, auth: BlogExample.alice, now: BlogExample.now)
        #expect(d.allowed, "\(d.reason ?? "")")
        #expect(d.newRoot == nil)
        let copyOnly = rules.decide(.delete(path: "/user-posts/alice/p1"), on: db, auth: BlogExample.alice, now: BlogExample.now)
        #expect(!copyOnly.allowed, "the copy cannot outlive or predate its post")
    }

    @Test func signedOutReadsAreDeniedAndSignedInReadsAllowed() {
        let db = BlogExample.withPost(rules)
        #expect(!rules.decide(.read(path: "/posts/p1"), on: db, auth: .null, now: BlogExample.now).allowed)
        #expect(rules.decide(.read(path: "/posts/p1"), on: db, auth: BlogExample.bob, now: BlogExample.now).allowed)
        #expect(!rules.decide(.read(path: "/posts"), on: db, auth: BlogExample.bob, now: BlogExample.now).allowed)
    }
}
