import RulesCompiler
import Testing

@testable import RulesRuntime

/// Decisions with reused scratch storage are the same as decisions without it.
@Suite struct DecisionScratchTests {
    static let rules = #"""
    {"rules": {
      "users": { "$uid": {
        ".read": "auth != null",
        ".write": "auth != null && auth.uid === $uid",
        ".validate": "newData.hasChildren(['name'])",
        "name": { ".validate": "newData.isString() && newData.val().length < 10" },
        "$other": { ".validate": false }
      } },
      "rooms": { "$room": { "members": { "$member": {
        ".read": "data.parent().child(auth.uid).exists()",
        ".write": "$member === auth.uid"
      } } } }
    }}
    """#

    static let operations: [(DatabaseOperation, AuthValue)] = [
        (.read(path: "/users/a"), .user(uid: "a")),
        (.read(path: "/users/a"), .null),
        (.read(path: "users//a"), .user(uid: "a")),
        (.read(path: "/users/a.b"), .user(uid: "a")),
        (.read(path: "/rooms/r1/members/a"), .user(uid: "a")),
        (.read(path: "/rooms/r1/members/b"), .user(uid: "zed")),
        (.set(path: "/users/a", value: ["name": "Ann"]), .user(uid: "a")),
        (.set(path: "/users/a", value: ["name": "Annabelle Lee"]), .user(uid: "a")),
        (.set(path: "/users/a", value: ["name": "Ann", "x": 1]), .user(uid: "a")),
        (.set(path: "/users/b", value: ["name": "Bob"]), .user(uid: "a")),
        (.update(path: "/", values: [("users/a/name", "A"), ("rooms/r1/members/a", true)]), .user(uid: "a")),
        (.update(path: "/users", values: [("a", ["name": "A"]), ("a/name", "B")]), .user(uid: "a")),
        (.delete(path: "/users/a"), .user(uid: "a")),
        (.push(path: "/rooms/r1/members", value: true, key: "a"), .user(uid: "a")),
        (.read(path: "/users/a"), .user(uid: "a")),
        // Sets, deletes and root updates keep their keys and entries in the scratch: odd
        // spellings, invalid paths, and updates with more paths than it keeps key arrays for.
        (.set(path: "users/a/name/", value: "Al"), .user(uid: "a")),
        (.set(path: "/users/a$/name", value: "Al"), .user(uid: "a")),
        (.delete(path: "/users//a"), .user(uid: "a")),
        (.update(path: "/", values: (0..<40).map { ("rooms/r\($0)/members/a", true) }), .user(uid: "a")),
        (.update(path: "/", values: (0..<40).map { ("rooms/r\($0)/members/\($0 == 39 ? "b" : "a")", true) }), .user(uid: "a")),
        (.update(path: "/", values: [("users/a/name", "A"), ("users/a/na#me", "B")]), .user(uid: "a")),
        (.update(path: "/", values: [("users/a/name", "C")]), .user(uid: "a")),
    ]

    @Test func reusedScratchDecidesAsAFreshEvaluation() throws {
        let ruleset = try #require(RulesCompiler.compile(source: Self.rules).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        let root = try DataNode.fromJSON(#"{"users": {"a": {"name": "Ann"}}, "rooms": {"r1": {"members": {"a": true}}}}"#)
        var scratch = DecisionScratch()
        // Twice over, so the second round runs on storage every operation has used.
        for _ in 0..<2 {
            for (op, auth) in Self.operations {
                let plain = engine.decide(op, on: root, auth: auth, now: 1)
                let reused = engine.decide(op, on: root, auth: auth, now: 1, scratch: &scratch)
                #expect(plain.allowed == reused.allowed)
                #expect(plain.reason == reused.reason)
                #expect(reused.explanation == nil)
                switch (plain.newRoot, reused.newRoot) {
                case (nil, nil): break
                case (let a?, let b?): #expect(a.isEqual(to: b))
                default: Issue.record("one decision has a tree and the other none")
                }
            }
        }
        // Some operations must be allowed and some denied, or the comparison proves little.
        let outcomes = Self.operations.map { engine.decide($0.0, on: root, auth: $0.1, now: 1).allowed }
        #expect(outcomes.contains(true) && outcomes.contains(false))
    }

    /// A read walks its path as bytes and makes the snapshot entries and wildcard keys only
    /// for rules that read them: a deeper rule must still see every wildcard above it, bound in
    /// order, and its own data, after shallower rules that read neither.
    /// The first decision on a new scratch (whose path buffers are still empty) may be a read of
    /// any path, the empty one included.
    @Test(arguments: ["", "/", "users", "/users/a", "//", "/users/a.b"])
    func aNewScratchFirstReadsAnyPath(path: String) throws {
        let ruleset = try #require(RulesCompiler.compile(source: Self.rules).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        let root = try DataNode.fromJSON(#"{"users": {"a": {"name": "Ann"}}}"#)
        var scratch = DecisionScratch()
        let reused = engine.decide(.read(path: path), on: root, auth: .user(uid: "a"), now: 1, scratch: &scratch)
        let plain = engine.decide(.read(path: path), on: root, auth: .user(uid: "a"), now: 1)
        #expect(reused.allowed == plain.allowed)
        #expect(reused.reason == plain.reason)
    }

    @Test func aDeepRuleSeesTheWildcardsAndDataAboveRulesThatReadNeither() throws {
        let rules = #"""
        {"rules": {"p": {
          ".read": "auth.uid === 'admin'",
          "$x": {
            ".read": "auth.uid === 'nobody'",
            "lit": { "$y": {
              ".read": "$x === 'a' && $y === auth.uid && data.val() === true && data.parent().child('flag').exists()"
            } }
          }
        }}}
        """#
        let engine = RulesEngine(ruleset: try #require(RulesCompiler.compile(source: rules).ruleset))
        let root = try DataNode.fromJSON(#"{"p": {"a": {"lit": {"u1": true, "u2": false, "flag": 1}}, "b": {"lit": {"u1": true, "flag": 1}}}}"#)
        let cases: [(String, String, Bool)] = [
            ("/p/a/lit/u1", "u1", true),
            ("p/a/lit/u1/", "u1", true),
            ("/p/a/lit/u2", "u2", false),  // data is false
            ("/p/b/lit/u1", "u1", false),  // $x is b
            ("/p/a/lit/u1", "u2", false),  // $y is not the caller
            ("/p/a/other/u1", "u1", false),  // no rule below $x but under lit
            ("/p/zzz", "admin", true),
        ]
        var scratch = DecisionScratch()
        for (path, uid, expected) in cases {
            let op = DatabaseOperation.read(path: path)
            #expect(engine.decide(op, on: root, auth: .user(uid: uid), now: 1, scratch: &scratch).allowed == expected, "\(path) as \(uid)")
            #expect(engine.decide(op, on: root, auth: .user(uid: uid), now: 1).allowed == expected, "\(path) as \(uid)")
            let explained = engine.decide(op, on: root, auth: .user(uid: uid), now: 1, explain: true)
            #expect(explained.allowed == expected, "\(path) as \(uid), explained")
        }
    }

    /// One scratch may serve several engines in turn, and nothing of one decision (a query, the
    /// user) leaks into the next.
    @Test func aScratchServesEnginesInTurnWithoutCarryingState() throws {
        let first = RulesEngine(ruleset: try #require(RulesCompiler.compile(source: #"{"rules": {"q": {".read": "query.orderByChild === 'x'"}}}"#).ruleset))
        let second = RulesEngine(ruleset: try #require(RulesCompiler.compile(source: #"{"rules": {"q": {".read": "auth != null"}}}"#).ruleset))
        var scratch = DecisionScratch()
        let ordered = DatabaseOperation.read(path: "/q", query: QueryParameters(orderByChild: "x"))
        let plain = DatabaseOperation.read(path: "/q")
        let user = AuthValue.user(uid: "u")
        #expect(first.decide(ordered, on: nil, auth: user, now: 1, scratch: &scratch).allowed)
        #expect(!first.decide(plain, on: nil, auth: user, now: 1, scratch: &scratch).allowed)
        #expect(second.decide(plain, on: nil, auth: user, now: 1, scratch: &scratch).allowed)
        #expect(!second.decide(plain, on: nil, auth: .null, now: 1, scratch: &scratch).allowed)
        #expect(first.decide(ordered, on: nil, auth: .null, now: 1, scratch: &scratch).allowed)
        #expect(!first.decide(plain, on: nil, auth: user, now: 1, scratch: &scratch).allowed)
    }

    /// `auth` members are remembered within a decision only: the next user on the same scratch
    /// (or the same VM) gets their own `auth.uid`, and several members in one rule each get
    /// theirs.
    @Test func authMembersDoNotCarryOverToTheNextUser() throws {
        let source = #"{"rules": {"$u": {".read": "auth.uid === $u && auth.provider === 'password' && auth.uid !== auth.provider"}}}"#
        let engine = RulesEngine(ruleset: try #require(RulesCompiler.compile(source: source).ruleset))
        var scratch = DecisionScratch()
        let alice = AuthValue.user(uid: "alice", provider: "password")
        let bob = AuthValue.user(uid: "bob", provider: "password")
        let anonymousAlice = AuthValue.user(uid: "alice", provider: "anonymous")
        for _ in 0..<2 {
            #expect(engine.decide(.read(path: "/alice"), on: nil, auth: alice, now: 1, scratch: &scratch).allowed)
            #expect(!engine.decide(.read(path: "/alice"), on: nil, auth: bob, now: 1, scratch: &scratch).allowed)
            #expect(engine.decide(.read(path: "/bob"), on: nil, auth: bob, now: 1, scratch: &scratch).allowed)
            #expect(!engine.decide(.read(path: "/alice"), on: nil, auth: anonymousAlice, now: 1, scratch: &scratch).allowed)
            #expect(!engine.decide(.read(path: "/alice"), on: nil, auth: .null, now: 1, scratch: &scratch).allowed)
        }
    }

    /// A scratch kept between requests holds no reference to the trees it decided on.
    @Test func aScratchDoesNotKeepTreesAlive() throws {
        let ruleset = try #require(RulesCompiler.compile(source: Self.rules).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        var scratch = DecisionScratch()
        weak var oldTree: AnyObject?
        weak var newTree: AnyObject?
        do {
            let root = try DataNode.fromJSON(#"{"users": {"a": {"name": "Ann"}}, "rooms": {"r1": {"members": {"a": true}}}}"#)
            oldTree = root?.storage
            var written: DataNode?
            for (op, auth) in Self.operations {
                let decision = engine.decide(op, on: root, auth: auth, now: 1, scratch: &scratch)
                if decision.allowed, decision.newRoot !== root { written = decision.newRoot }
            }
            newTree = written?.storage
            #expect(oldTree != nil && newTree != nil)
        }
        #expect(oldTree == nil)
        #expect(newTree == nil)
    }

    @Test(arguments: ["", "/", "a", "/a/b", "a/b/", "/a/b/", "//", "a//b", "/a.b", "/é/e\u{301}", "/\u{7F}", "/a/" + String(repeating: "k", count: 769),
                      String(repeating: "/k", count: DataLimits.maxPathLevels), String(repeating: "/k", count: DataLimits.maxPathLevels + 1),
                      "/k/" + String(repeating: "k", count: DataLimits.maxKeyBytes), "a/b/c/",
                      "/a/\u{301}b/\u{1F600}", "/\u{65}\u{301}/x", "/" + String(repeating: "é", count: 20) + "/y"])
    func fastSplitAgreesWithTheValidatingParser(text: String) {
        var keys = ["stale"]
        let fast = DataPath.splitValidKeys(text, into: &keys)
        let parsed = try? DataPath(validating: text)
        if fast {
            // Compared as bytes: String's == would call "é" and "e\u{301}" the same key.
            #expect(parsed?.keys.map { Array($0.utf8) } == keys.map { Array($0.utf8) })
        } else {
            #expect(parsed == nil)
        }
    }

    /// Validating a written object keeps what each child's check needed only while that child
    /// is checked: a write of 100,000 children leaves the snapshot table at the size of one
    /// child's check, not two entries per child (a 10-million-child body used to need 940 MB
    /// here, for a denial it then decided twice more with explanations).
    @Test func validatingManyChildrenKeepsTheTableSmall() throws {
        let source = #"{"rules": {"public": {".read": true, ".write": true, "$k": {".validate": "newData.isString() && data.parent().exists() == false"}}}}"#
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        var children: [(String, DataInput)] = (0..<100_000).map { ("k\($0)", DataInput.string("v")) }
        var scratch = DecisionScratch()
        let allowed = engine.decide(.set(path: "/public", value: .object(children)), on: nil, now: 1, scratch: &scratch)
        #expect(allowed.allowed)
        #expect(try #require(scratch.evaluator).snaps.entries.capacity < 1_000)
        // Denied at the last child: the same, and the explained decision names that child.
        children[99_999].1 = .number(1)
        let denied = engine.decide(.set(path: "/public", value: .object(children)), on: nil, now: 1, scratch: &scratch)
        #expect(!denied.allowed)
        #expect(try #require(scratch.evaluator).snaps.entries.capacity < 1_000)
        let explained = engine.decide(.set(path: "/public", value: .object(children)), on: nil, now: 1, explain: true, redactUnreadable: true)
        #expect(!explained.allowed)
        #expect(explained.explanation?.decisive?.dataPath == "/public/k99999")
        #expect(explained.unredactedExplanation?.decisive?.dataPath == "/public/k99999")
    }
}
