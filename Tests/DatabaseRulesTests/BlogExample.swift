import RulesTestSupport
import DatabaseRules
import Foundation

/// The social blog of `rules-examples/blog`, with the operations its tests use.
enum BlogExample {
    static let rulesPath = TestPaths.examples.appendingPathComponent("blog/database.rules.json").path

    static func ruleset() throws -> Ruleset { try Ruleset(contentsOfFile: rulesPath) }

    static let alice: AuthValue = .user(uid: "alice")
    static let bob: AuthValue = .user(uid: "bob")
    static let carol: AuthValue = .user(uid: "carol")
    static let now: Double = 1_700_000_000_000

    /// A post by alice, written with its fan-out copy in one update.
    static let createPost: DatabaseOperation = .update(path: "/", values: [
        ("posts/p1", ["uid": "alice", "author": "Alice", "title": "Hello", "body": "First post", "starCount": 0]),
        ("user-posts/alice/p1", ["uid": "alice", "author": "Alice", "title": "Hello", "body": "First post", "starCount": 0]),
    ])

    /// `uid` stars (delta 1) or unstars (delta -1) p1, canonical post and copy together.
    static func star(_ uid: String, delta: Double = 1, copyDelta: Double? = nil) -> DatabaseOperation {
        let mark: DataInput = delta > 0 ? true : nil
        return .update(path: "/", values: [
            ("posts/p1/stars/\(uid)", mark),
            ("posts/p1/starCount", .increment(delta)),
            ("user-posts/alice/p1/stars/\(uid)", mark),
            ("user-posts/alice/p1/starCount", .increment(copyDelta ?? delta)),
        ])
    }

    /// The database after alice created p1.
    static func withPost(_ rules: Ruleset) -> Database {
        var db = Database()
        db.commit(rules.decide(createPost, on: db, auth: alice, now: now))
        return db
    }
}
