import RulesRuntime

/// A database for the rules of `rules-examples/blog`: users, posts and their per-author copies,
/// grown to a requested number of nodes. Keys are fixed-width so the trees build already sorted.
package struct BlogDatabase: Sendable {
    /// The tree.
    package let root: DataNode
    /// The number of posts.
    package let postCount: Int
    /// The post the operations use (by `alice`, in the middle of the key range, no stars).
    package let postKey: String

    /// Nodes per post: the post (6) and its copy under user-posts (6).
    static let nodesPerPost = 12

    /// Builds a tree of about `nodes` nodes (at least one post).
    package init(nodes: Int) {
        let posts = max(1, nodes / Self.nodesPerPost)
        let authors = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
        postCount = posts
        let middle = posts / 2
        // The post in the middle belongs to alice.
        func author(_ i: Int) -> String { i == middle ? "alice" : authors[i % authors.count] }
        func key(_ i: Int) -> String {
            var digits = String(i)
            while digits.count < 8 { digits = "0" + digits }
            return "p" + digits
        }
        postKey = key(middle)
        func post(_ i: Int) -> DataNode {
            let a = author(i)
            let fields: [(String, DataNode)] = [
                ("author", DataNode(leaf: .string(a.capitalized))),
                ("body", DataNode(leaf: .string("Body of post \(i), long enough to be a real paragraph."))),
                ("starCount", DataNode(leaf: .number(0))),
                ("title", DataNode(leaf: .string("Post \(i)"))),
                ("uid", DataNode(leaf: .string(a))),
            ]
            return DataNode.object(fields)!
        }
        var postPairs: [(String, DataNode)] = []
        postPairs.reserveCapacity(posts)
        var byAuthor: [String: [(String, DataNode)]] = [:]
        for i in 0..<posts {
            let p = post(i)
            postPairs.append((key(i), p))
            byAuthor[author(i), default: []].append((key(i), p))
        }
        var copies: [(String, DataNode)] = []
        var users: [(String, DataNode)] = []
        for a in authors.sorted() {
            users.append((a, DataNode.object([("username", DataNode(leaf: .string(a)))])!))
            if let list = byAuthor[a], let node = DataNode.object(list) { copies.append((a, node)) }
        }
        var top: [(String, DataNode)] = [("posts", DataNode.object(postPairs)!)]
        if let c = DataNode.object(copies) { top.append(("user-posts", c)) }
        top.append(("users", DataNode.object(users)!))
        root = DataNode.object(top)!
    }
}

extension String {
    fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
