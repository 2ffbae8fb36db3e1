import DatabaseRules

/// Fixed inputs shared by the targets.
public enum FuzzFixtures {
    /// A small tree with the shapes most rules look at (strings, numbers, booleans, nesting).
    public static let sampleTree: DataNode? = try? DataNode.fromJSON(
        #"{"users":{"alice":{"username":"A","age":30,"admin":true}},"posts":{"p1":{"uid":"alice","title":"T","starCount":0,"stars":{"bob":true}}},"a":{"b":{"c":"d"}},"x":1}"#)

    /// Reads, writes, updates and a query covering the sample tree. Built on each use: the leak
    /// checker does not follow pointers that Swift keeps with enum tags in their spare bits, so
    /// a global array of operations would be reported as leaked at exit.
    public static var sampleOperations: [DatabaseOperation] { [
        .read(path: "/"),
        .read(path: "/users/alice"),
        .read(path: "/posts", query: QueryParameters(orderByChild: "uid", equalTo: .string("alice"), limitToFirst: 10)),
        .set(path: "/users/alice/username", value: "B"),
        .set(path: "/posts/p2", value: ["uid": "alice", "title": "New", "starCount": 0, "t": .timestamp]),
        .update(path: "/", values: [("posts/p1/starCount", 1), ("posts/p1/stars/alice", true), ("a/b", nil)]),
        .delete(path: "/posts/p1"),
        .push(path: "/posts", value: ["uid": "alice", "n": .increment(2)], key: "-NzzzzzzzzzzzzzzzzzZ"),
    ] }
}
