// Everything a server needs, through `import DatabaseRules` alone.
import DatabaseRules

let rules = try Ruleset(source: """
    {"rules": {
      "posts": {"$post": {
        ".read": true,
        "stars": {"$uid": {".write": "auth.uid === $uid && !data.exists()"}},
        "starCount": {".write": "auth != null", ".validate": "newData.isNumber()"}
      }}
    }}
    """, path: "app.rules.json")
let database = SharedDatabase(try Database(json: #"{"posts": {"p1": {"starCount": 0}}}"#))

// A star: one atomic multi-path update.
let star = DatabaseOperation.update(path: "/posts/p1", values: [("stars/alice", true), ("starCount", .increment(1))])
let first = database.apply(star, rules: rules, auth: .user(uid: "alice"), explain: true)
// A second star by the same user is denied, and explained.
let second = database.apply(star, rules: rules, auth: .user(uid: "bob"), explain: true)
print("first:", first.allowed, "count:", database.current.value(at: "/posts/p1/starCount"))
print("second:", second.allowed, second.explanation?.headline ?? "-")

// Compare-and-set, node hashes, push keys, limits.
let hash = database.current.hash(at: "/posts/p1/starCount")
let swapped = database.compareAndSet(path: "/posts/p1/starCount", expectedHash: NodeHash.of(nil), value: 5, rules: rules, auth: .user(uid: "alice"))
print("stale compare-and-set:", swapped.status, "hash now:", hash == NodeHash.of(database.current.node(at: "/posts/p1/starCount")))
var keys = PushKey(seed: 1)
print("push key:", keys.next(now: 1_700_000_000_000).count)
var limited = rules
limited.budget = EvaluationBudget(steps: 1_000)
limited.explanationLimits = ExplanationLimits(maxEvaluations: 10, maxValueBytes: 1_024)
print("read:", limited.decide(.read(path: "/posts/p1"), on: database.current).allowed)
