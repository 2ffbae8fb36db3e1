import RulesCompiler
import RulesRuntime
import Testing

/// A shrunk expression-level case: the expression as the only rule of its kind at `/$x/b/$y`.
struct ExpressionRegression: Sendable, CustomTestStringConvertible {
    var name: String = ""
    var expression: String
    var kind: WrapKind
    var data: String
    var written: DataInput
    var auth: AuthValue
    var now: Double
    var x: String
    var y: String
    var query: QueryParameters
    var expected: Verdict

    init(_ name: String = "", expression: String, kind: WrapKind, data: String, written: DataInput, auth: AuthValue, now: Double, x: String, y: String, query: QueryParameters = .none, expected: Verdict) {
        self.query = query
        self.name = name
        self.expression = expression
        self.kind = kind
        self.data = data
        self.written = written
        self.auth = auth
        self.now = now
        self.x = x
        self.y = y
        self.expected = expected
    }

    var testDescription: String { name.isEmpty ? expression : name }

    var asCase: ExpressionCase {
        ExpressionCase(
            expression: .atom(expression, .bool), kind: kind, data: RegressionCase.data(data),
            written: RegressionCase.input(written), auth: RegressionCase.auth(auth), now: now, x: x, y: y,
            query: query == .none ? nil : RegressionCase.query(query))
    }
}

/// A shrunk operation-level case.
struct OperationRegression: Sendable, CustomTestStringConvertible {
    var name: String
    var rules: String
    var data: String
    var auth: AuthValue
    var operation: DatabaseOperation
    var now: Double
    var allowed: Bool

    var testDescription: String { name }
}

/// Disagreements the differential tests found, kept after the fix (see the report of each).
@Suite struct RegressionTests {
    static let expressionCases: [ExpressionRegression] = [
        // Both sides agree on these already; they pin results the reference derives from the spec.
        ExpressionRegression("null-through auth member", expression: "auth.token.org.tier == null", kind: .read, data: "null", written: nil, auth: nil, now: 0, x: "a", y: "b", expected: .isTrue),
        ExpressionRegression("length of a missing claim", expression: "auth.token.missing.length > 0", kind: .read, data: "null", written: nil, auth: .user(uid: "a"), now: 0, x: "a", y: "b", expected: .error),
        // \w is ASCII only (decision 9); the first reference used ICU's Unicode \w and said true.
        ExpressionRegression("\\w in a class is ASCII only", expression: "'ｱ'.matches(/[\\w-.]/)", kind: .write, data: "null", written: nil, auth: nil, now: 0, x: "b", y: "a", expected: .isFalse),
        // The first reference gave null for any index on a null receiver; decision 6.4 makes a null
        // key an error, which is what the VM does.
        ExpressionRegression("a null index is an error on a null receiver", expression: "null != auth.foo[auth.uid]", kind: .validate, data: "null", written: 1, auth: nil, now: 0, x: "b", y: "1", expected: .error),
        ExpressionRegression("a null index is an error in a comparison", expression: "data.val() !== auth.foo[auth.uid]", kind: .read, data: "true", written: nil, auth: nil, now: 1700000000000, x: "1", y: "b", expected: .error),
        ExpressionRegression("a string index through null is null", expression: "auth.foo[$x] == null", kind: .read, data: "null", written: nil, auth: nil, now: 0, x: "a", y: "b", expected: .isTrue),
        // `i` folds one character to one character (decision 9): 'SS' does not match /ß/i. The
        // first reference used ICU's full folding and said true.
        ExpressionRegression("case-insensitive ß does not match SS", expression: "'ß'.toUpperCase().matches(/ß/i)", kind: .validate, data: "null", written: 0.5, auth: nil, now: 0, x: "c", y: "b", expected: .isFalse),
        ExpressionRegression("case-insensitive é matches É", expression: "'É'.matches(/^é$/i)", kind: .read, data: "null", written: nil, auth: nil, now: 0, x: "a", y: "b", expected: .isTrue),
        ExpressionRegression("parent() four times from /$x/b/$y", expression: "data.parent().parent().parent().parent().exists()", kind: .read, data: "null", written: nil, auth: nil, now: 0, x: "a", y: "b", expected: .error),
    ]

    @Test(arguments: expressionCases)
    func expressionVerdict(_ r: ExpressionRegression) throws {
        let c = r.asCase
        let ruleset = try #require(c.compile().0, "rejected: \(c.compile().1 ?? "")")
        #expect(c.vmVerdict(ruleset) == r.expected)
        #expect(c.referenceVerdict() == r.expected)
    }

    static let operationCases: [OperationRegression] = [
        // Deleting below a leaf leaves the leaf, so the root's .validate still runs on it and
        // denies (decision 7.8). The first reference cleared the leaf and allowed.
        OperationRegression(
            name: "deleting below a leaf keeps the leaf, which is still validated",
            rules: #"{"rules": {".write": "true", ".validate": "false"}}"#, data: #""A1""#, auth: nil,
            operation: .set(path: "/c/c/c", value: nil), now: 0, allowed: false),
        OperationRegression(
            name: "a wildcard write below a leaf root, root validate false",
            rules: #"{"rules": {".validate": "false", "$w0": {"$w1": {".write": "true"}}}}"#, data: "10", auth: nil,
            operation: .delete(path: "/b/b"), now: 0, allowed: false),
        // A write is decided against the tree before it plus the written node, building the new
        // tree's path only when a rule reads a node on it whole. Once the root had been built
        // (for newData.val()), a level below it counted as existing because the root did.
        OperationRegression(
            name: "a level of the write path below a built root exists only if it does",
            rules: #"{"rules": {".write": "null != newData.val()", "$w0": {".validate": "false"}}}"#, data: "false", auth: nil,
            operation: .delete(path: "/c/c/1"), now: 0, allowed: true),
        OperationRegression(
            name: "deleting a missing path: its levels do not exist after the write either",
            rules: #"{"rules": {".write": "newData.getPriority() === query.startAt", "é": {".validate": "false"}}}"#,
            data: #"{"1": {"b": "b"}}"#, auth: nil,
            operation: .set(path: "/é/b/é", value: nil), now: 0, allowed: true),
        // The ancestors of a written node are found without building them: one exists when the
        // level below does or when it keeps another child (or is a leaf).
        OperationRegression(
            name: "deleting a post's only child removes the post; another child keeps it",
            rules: #"{"rules": {"p": {".write": "!newData.exists()"}, "q": {".write": "newData.exists() && newData.hasChild('x') && !newData.hasChild('y')"}}}"#,
            data: #"{"p": {"y": 1}, "q": {"x": 1, "y": 2}}"#, auth: nil,
            operation: .delete(path: "/p/y"), now: 0, allowed: true),
        OperationRegression(
            name: "deleting one of two children keeps the parent",
            rules: #"{"rules": {"q": {".write": "newData.exists() && newData.hasChild('x') && !newData.hasChild('y') && newData.child('x').val() === 1"}}}"#,
            data: #"{"p": {"y": 1}, "q": {"x": 1, "y": 2}}"#, auth: nil,
            operation: .delete(path: "/q/y"), now: 0, allowed: true),
    ]

    @Test(arguments: operationCases)
    func operationVerdict(_ r: OperationRegression) throws {
        let ruleset = try #require(RulesCompiler.compile(source: r.rules).ruleset)
        let decision = RulesEngine(ruleset: ruleset).decide(r.operation, on: try DataNode.fromJSON(r.data), auth: r.auth, now: r.now)
        #expect(decision.allowed == r.allowed)
        let rules = try #require(RegressionCase.rules(r.rules))
        let referenceAllowed = ReferenceEngine(rules: rules).decide(
            RegressionCase.operation(r.operation), on: RegressionCase.data(r.data), auth: RegressionCase.auth(r.auth), now: r.now)
        #expect(referenceAllowed == r.allowed)
    }
}
