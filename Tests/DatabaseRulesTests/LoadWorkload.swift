import RulesTestSupport
import DatabaseRules
import Foundation

/// A deterministic mix of blog operations for the load test: operation `i` is always the same,
/// so a sequential run and a threaded run can be compared verdict by verdict without keeping a
/// million operations in memory.
struct LoadWorkload: Sendable {
    static let users = (0..<20).map { "u\($0)" }
    static let posts = 40
    static let now: Double = 1_700_000_000_000

    /// Databases the operations run against: the generated blog, and the same after one star.
    let databases: [Database]

    init(rules: Ruleset) throws {
        let base = try Database(json: Self.blogJSON())
        var starred = base
        starred.commit(rules.decide(Self.star(post: 1, author: "u1", uid: "u7", delta: 1), on: base, auth: .user(uid: "u7"), now: Self.now))
        databases = [base, starred]
    }

    static func author(_ post: Int) -> String { users[post % users.count] }

    /// Users, posts by every user (each starred by the next three users) and their copies.
    static func blogJSON() -> String {
        var usersJSON: [String] = []
        for u in users { usersJSON.append("\"\(u)\": {\"username\": \"\(u)\", \"email\": \"\(u)@example.com\"}") }
        var posts: [String] = []
        var copies: [String: [String]] = [:]
        for p in 0..<Self.posts {
            let a = author(p)
            let starrers = (1...3).map { users[(p + $0 * 3) % users.count] }.filter { $0 != a }
            let stars = starrers.map { "\"\($0)\": true" }.joined(separator: ", ")
            let body = "\"uid\": \"\(a)\", \"author\": \"\(a.uppercased())\", \"title\": \"Post \(p)\", \"body\": \"Text \(p)\", \"starCount\": \(starrers.count), \"stars\": {\(stars)}"
            posts.append("\"p\(p)\": {\(body)}")
            copies[a, default: []].append("\"p\(p)\": {\(body)}")
        }
        let userPosts = copies.map { "\"\($0.key)\": {\($0.value.joined(separator: ", "))}" }
        return "{\"users\": {\(usersJSON.joined(separator: ", "))}, \"posts\": {\(posts.joined(separator: ", "))}, \"user-posts\": {\(userPosts.joined(separator: ", "))}}"
    }

    /// The blog's star (delta 1) or unstar (delta -1): post, copy and both counters in one update.
    static func star(post: Int, author: String, uid: String, delta: Double, copyDelta: Double? = nil) -> DatabaseOperation {
        let mark: DataInput = delta > 0 ? true : nil
        return .update(path: "/", values: [
            ("posts/p\(post)/stars/\(uid)", mark),
            ("posts/p\(post)/starCount", .increment(delta)),
            ("user-posts/\(author)/p\(post)/stars/\(uid)", mark),
            ("user-posts/\(author)/p\(post)/starCount", .increment(copyDelta ?? delta)),
        ])
    }

    /// Operation `i`: its database, caller, and whether to ask for an explanation.
    func operation(_ i: Int) -> (DatabaseOperation, Database, AuthValue, Bool) {
        var g = SplitMix64(seed: UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 17)
        let db = databases[g.below(databases.count)]
        let caller = Self.users[g.below(Self.users.count)]
        let auth: AuthValue = g.below(10) == 0 ? .null : .user(uid: caller)
        let explain = g.below(10) == 0
        let p = g.below(Self.posts + 2)  // two posts that do not exist
        let a = Self.author(p)
        // Half the time the caller acts on their own post, so that many writes are allowed.
        let own = g.below(2) == 0
        let post = own ? (Self.users.firstIndex(of: caller) ?? 0) : p
        let postAuthor = Self.author(post)
        let op: DatabaseOperation
        switch g.below(12) {
        case 0, 1, 2:
            op = .read(path: [
                "/posts/p\(p)", "/users/\(caller)", "/user-posts/\(a)", "/", "/posts", "/posts/p\(p)/title",
            ][g.below(6)])
        case 3:
            op = .set(path: "/posts/p\(post)/title", value: g.below(4) == 0 ? .number(5) : .string("New title \(i % 97)"))
        case 4:
            let email: DataInput = g.below(3) == 0 ? "not an email" : .string("\(caller)@example.org")
            op = .set(path: "/users/\(g.below(3) == 0 ? Self.users[g.below(Self.users.count)] : caller)", value: ["username": .string(caller), "email": email])
        case 5, 6:
            op = Self.star(post: p, author: a, uid: caller, delta: g.below(2) == 0 ? 1 : -1, copyDelta: g.below(8) == 0 ? 2 : nil)
        case 7:
            op = .delete(path: "/posts/p\(post)/starCount")
        case 8:
            op = .update(path: "/", values: [("posts/p\(post)", nil), ("user-posts/\(postAuthor)/p\(post)", nil)])
        case 9:
            let fields: DataInput = ["uid": .string(caller), "author": "A", "title": "T", "body": "B", "starCount": g.below(4) == 0 ? 1 : 0]
            op = .push(path: "/posts", value: fields, key: "-N\(i)")
        case 10:
            let fields: DataInput = ["uid": .string(caller), "author": "A", "title": "T", "body": "B", "starCount": 0]
            op = .update(path: "/", values: [("posts/n\(i)", fields), ("user-posts/\(caller)/n\(i)", fields)])
        default:
            op = .update(path: "/posts/p\(post)", values: [("title", "Edited"), ("body", g.below(5) == 0 ? .number(1) : "Edited body")])
        }
        return (op, db, auth, explain)
    }
}
