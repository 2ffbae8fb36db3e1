import DatabaseRules
import RulesCompiler
import RulesLint
import RulesSyntax
import Testing

/// `public-read` and `public-write` widened by the solver (`rules check`): rules that let anyone
/// signed out in only with some data or some value are reported with the witness the engine
/// allowed; the search alone reports nothing there, and what the author opened on purpose (a
/// query-bounded read) or what no client could have stored (under `.validate: false`) is not
/// reported.
@Suite struct ModelWidenedLintTests {
    /// A budget large enough for these small files on a busy machine.
    static let budget = AccessModel.SolverBudget(milliseconds: 2000, seconds: 60, threatsOnly: true)

    static func findings(_ rules: String, solver: Bool) -> [LintFinding] {
        let file = SourceFile(path: "t.json", text: #"{"rules": {\#(rules)}}"#)
        let result = RulesCompiler.compile(file)
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        var configuration = LintConfiguration.default
        configuration.solver = solver ? budget : nil
        return LintRun.findings(result, file: file, configuration: configuration)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var rules: String
        var code: LintCode
        /// The text of the rule the finding is at.
        var at: String
        /// Whether the bounded search alone finds it too.
        var searchFinds = false
        var testDescription: String { name }
    }

    static let reported: [Case] = [
        Case(
            name: "a room's messages readable by anyone once the room has a name",
            rules: #""names": {".read": "auth != null"}, "messages": {"$room": {".read": "root.child('names').child($room).val() != null", "$id": {".write": "auth != null"}}}"#,
            code: .publicRead, at: "root.child('names').child($room).val() != null"),
        Case(
            name: "a checkpoint anyone signed out writes by leaving its author out",
            rules: #""checkpoint": {".read": "auth != null", ".write": "newData.child('a').val() === auth.uid"}"#,
            code: .publicWrite, at: "newData.child('a').val() === auth.uid", searchFinds: true),
        Case(
            name: "records anyone deletes whose code has a shape",
            rules: #""notes": {".read": "auth != null", "$id": {".write": "newData.exists() ? auth != null : data.child('code').val().matches(/^x[0-9]{3}$/)"}}"#,
            code: .publicWrite, at: "newData.exists() ? auth != null : data.child('code').val().matches(/^x[0-9]{3}$/)"),
    ]

    @Test(arguments: reported)
    func reportedWithTheSolver(_ c: Case) {
        let found = Self.findings(c.rules, solver: true).filter { $0.code == c.code }
        let f = found.first { $0.diagnostic.message.contains(c.at) }
        #expect(f != nil, "\(found.map(\.diagnostic.message))")
        #expect(f?.witnessStatus == "confirmed")
        #expect(f?.witness?.identity == .anonymous)
        // The search alone finds it only where it guesses the request.
        if !c.searchFinds { #expect(!Self.findings(c.rules, solver: false).contains { $0.code == c.code && $0.diagnostic.message.contains(c.at) }) }
    }

    static let notReported: [Case] = [
        Case(name: "a page of a public feed", rules: #""feed": {".read": "query.orderByKey === true && query.limitToLast <= 20", "$id": {".write": "auth != null"}}"#, code: .publicRead, at: ""),
        Case(name: "extra children no client can store", rules: #""posts": {"$id": {".write": "auth != null", ".validate": "newData.hasChildren(['t'])", "t": {".validate": "newData.isString()"}, "$other": {".validate": false, ".write": "data.child('x').val() === auth.uid"}}}"#, code: .publicWrite, at: ""),
        Case(name: "writes for signed-in users only", rules: #""posts": {"$id": {".write": "auth != null && newData.child('by').val() === auth.uid"}}"#, code: .publicWrite, at: ""),
    ]

    @Test(arguments: notReported)
    func notReportedWithTheSolver(_ c: Case) {
        let found = Self.findings(c.rules, solver: true).filter { $0.code == c.code }
        #expect(found.isEmpty, "\(found.map(\.diagnostic.message))")
    }

    /// A rule true for anyone whatever the data is one finding, worded by the static check.
    @Test func aStaticGrantIsReportedOnce() {
        let found = Self.findings(#""open": {".read": true, "$id": {".write": "auth != null"}}"#, solver: true).filter { $0.code == .publicRead }
        #expect(found.count == 1)
        #expect(found.first?.diagnostic.message.contains("this .read is true") == true)
    }

    /// The model's figures: the cells left unknown past a budget too small for anything.
    @Test func cellsPastTheBudgetAreCounted() {
        let file = SourceFile(path: "t.json", text: #"{"rules": {"a": {"$x": {".read": "$x.matches(/^[a-z]+$/)", ".write": "newData.val() > 3"}}, "b": {"$y": {".write": "data.child('k').val() == 'k'"}}}}"#)
        let result = RulesCompiler.compile(file)
        var configuration = LintConfiguration.default
        configuration.solver = AccessModel.SolverBudget(milliseconds: 1, seconds: 0.000_001, threatsOnly: true)
        let outcome = LintRun.run(result, file: file, configuration: configuration)
        #expect(outcome.unknownCells > 0)
        configuration.solver = nil
        #expect(LintRun.run(result, file: file, configuration: configuration).unknownCells == 0)
    }
}
