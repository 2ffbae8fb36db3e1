import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// An untraced run executes the fast code (fused instructions, booleans carried into what
/// follows them), a traced one the plain code: both must give the same outcome, error and
/// source range included, in every case the fusions and their fallbacks take.
@Suite struct FastCodeTests {
    static let expressions = [
        "auth.uid == $k",
        "auth.length == 1",                                       // signed out: the property fails
        "auth.token.admin == true",
        "auth != null && newData.exists()",
        "auth == null || !data.exists()",
        "data.val() == null",
        "newData.child('owner').val() == auth.uid",
        "newData.child('a/b').exists() || newData.child('owner').exists()",  // two keys: not fused
        "newData.child('n').isNumber() && newData.child('n').val() > 3",
        "!newData.hasChildren()",
        "newData.hasChildren(['owner', 'n'])",
        "root.child('items').child($k).child('owner').val() === auth.uid",
        "data.child('owner').val().length > 2",                   // null has no length
        "newData.val() == null ? false : true",
        "!(!newData.exists())",
        "newData.child('n').val() + 1 > 2 && !(newData.child('owner').val() == 'x')",
        "newData.child('owner').val().matches(/^u/) || auth.uid.beginsWith('u')",
    ]

    static let auths: [AuthValue] = [.null, .user(uid: "u1"), .user(uid: "u2", claims: ["admin": .bool(true)])]
    static let stored: [String?] = [nil, #"{"items": {"k1": {"owner": "u1", "n": 5}}}"#]
    static let written: [DataInput] = [["owner": "u1", "n": 5], ["owner": "x", "n": "s"], nil, ["a": ["b": true]]]

    @Test(arguments: expressions)
    func untracedRunsDecideAsTracedOnes(expression: String) throws {
        let source = #"{"rules": {"items": {"$k": {".write": "\#(expression)", ".read": true}}}}"#
        let ruleset = try RuleProbe.ruleset(source)
        let engine = RulesEngine(ruleset: ruleset)
        for auth in Self.auths {
            for json in Self.stored {
                let root = try RuleProbe.tree(json)
                for value in Self.written {
                    let op = DatabaseOperation.set(path: "/items/k1", value: value)
                    let fast = engine.decide(op, on: root, auth: auth, now: RuleProbe.now)
                    let traced = engine.decide(op, on: root, auth: auth, now: RuleProbe.now, explain: true)
                    #expect(fast.allowed == traced.allowed, "\(auth) \(json ?? "null") \(value)")
                    #expect(fast.reason == traced.reason, "\(auth) \(json ?? "null") \(value)")
                }
            }
        }
    }

    /// The VM used directly (without the engine's tables) on each rule: the same outcome, error
    /// message and range with no tracer and with one.
    @Test(arguments: expressions)
    func vmOutcomesMatch(expression: String) throws {
        let ruleset = try RuleProbe.ruleset(#"{"rules": {"items": {"$k": {".write": "\#(expression)"}}}}"#)
        let rule = try #require(ruleset.nodes.first { $0.write >= 0 }?.write)
        for auth in Self.auths {
            for json in Self.stored {
                var snaps = SnapshotTable()
                let root = snaps.addRoot(try RuleProbe.tree(json))
                let data = snaps.addDescendant(of: root, keys: ["items", "k1"])
                let context = EvaluationContext(
                    auth: auth, now: RuleProbe.now, query: .none, wildcardKeys: ["k1"], root: root, data: data, newData: data)
                var vm = VM()
                var none = NoTracer()
                var recording = RecordingTracer()
                let fast = vm.run(Int(rule), in: ruleset, context: context, snapshots: &snaps, tracer: &none)
                let traced = vm.run(Int(rule), in: ruleset, context: context, snapshots: &snaps, tracer: &recording)
                #expect(fast == traced, "\(expression) with \(auth) on \(json ?? "null")")
            }
        }
    }
}
