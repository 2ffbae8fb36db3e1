import DatabaseRules
import Testing

/// Explanations name the path and the rule that decided, at its file:line:col.
@Suite struct ExplanationTests {
    let rules: Ruleset
    init() throws { rules = try BlogExample.ruleset() }

    /// The line and column where a rule's value starts, found in the file text.
    func position(of ruleKey: String, after anchor: String) throws -> (Int, Int) {
        let text = rules.compiled.file.lineText
        var line = 1
        var seenAnchor = false
        while line <= rules.compiled.file.lineStarts.count {
            let t = text(line)
            if t.contains(anchor) { seenAnchor = true }
            if seenAnchor, let r = t.range(of: "\"\(ruleKey)\": \"") {
                let column = t.utf8.distance(from: t.startIndex, to: r.upperBound) // the opening quote is the column before
                return (line, column)
            }
            line += 1
        }
        throw ExplanationTestError.notFound
    }

    enum ExplanationTestError: Error { case notFound }

    @Test func deniedDoubleStarNamesTheStarWriteRule() throws {
        var db = BlogExample.withPost(rules)
        db.commit(rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now))
        let d = rules.decide(BlogExample.star("bob"), on: db, auth: BlogExample.bob, now: BlogExample.now, explain: true)
        #expect(!d.allowed)
        let explanation = try #require(d.explanation)
        let decisive = try #require(explanation.decisive)
        #expect(decisive.rulePath == "/posts/$postId/stars/$uid/.write")
        #expect(decisive.dataPath == "/posts/p1/stars/bob")
        #expect(decisive.outcome == .value(false))
        let (line, column) = try position(of: ".write", after: "Only the caller's own star")
        #expect(decisive.location == SourceLocation(line: line, column: column))
        #expect(decisive.position.hasSuffix("blog/database.rules.json:\(line):\(column)"))
        #expect(decisive.bindings.map(\.name) == ["$postId", "$uid"])
        #expect(decisive.bindings.map(\.value) == ["p1", "bob"])
        // Sub-expression values are recorded: the caller matches $uid, and the star already exists.
        #expect(decisive.values.contains { $0.text == "auth.uid === $uid" && $0.value == "true" })
        #expect(decisive.values.contains { $0.text == "data.exists()" && $0.value == "true" })
        let text = explanation.trace
        #expect(text.contains("update /: denied"))
        #expect(text.contains("→ /posts/$postId/stars/$uid/.write at "))
    }

    @Test func deniedCounterUpdateNamesTheFailingValidate() throws {
        let db = BlogExample.withPost(rules)
        let d = rules.decide(.set(path: "/posts/p1/starCount", value: .increment(1)), on: db, auth: BlogExample.bob, now: BlogExample.now, explain: true)
        let decisive = try #require(d.explanation?.decisive)
        #expect(decisive.rulePath == "/posts/$postId/starCount/.validate")
        #expect(decisive.kind == .validate)
        #expect(decisive.outcome == .value(false))
        let (line, column) = try position(of: ".validate", after: "The first .validate branch allows")
        #expect(decisive.location == SourceLocation(line: line, column: column))
    }

    @Test func runtimeErrorsAreReportedWithTheirPosition() throws {
        let source = """
            {
              "rules": {
                "counter": {
                  ".write": "newData.val() == data.val() + 1"
                }
              }
            }
            """
        let r = try Ruleset(source: source, path: "counter.rules.json")
        let d = r.decide(.set(path: "/counter", value: 1), on: Database(), now: 0, explain: true)
        #expect(!d.allowed)
        let e = try #require(d.explanation?.evaluations.first)
        guard case .error(let error) = e.outcome else {
            Issue.record("expected a runtime error, got \(e.outcome)")
            return
        }
        #expect(error.message.contains("+"))
        // `data.val() + 1` starts at line 4, column 35.
        #expect(e.errorLocation == SourceLocation(line: 4, column: 35))
    }

    @Test func explanationsAreNotMadeUnlessAsked() {
        let d = rules.decide(.read(path: "/posts"), on: Database(), auth: BlogExample.bob, now: 0)
        #expect(d.explanation == nil)
    }
}

/// What `print` shows of the library's results: verdicts and reasons, never the trees.
@Suite struct ReadableResultsTests {
    @Test func decisionsCompareAndSetResultsAndExplanationsReadAsText() throws {
        let rules = try Ruleset(source: #"{"rules": {"n": {".read": true, ".write": "newData.val() > data.val()"}}}"#)
        var database = try Database(json: #"{"n": 1}"#)
        let allowed = rules.decide(.set(path: "/n", value: 2), on: database, explain: true)
        #expect("\(allowed)" == "allowed")
        #expect(allowed.explanation?.text == "set /n: allowed\n  by /n/.write at database.rules.json:1:43\n")
        let denied = rules.decide(.set(path: "/n", value: 0), on: database, explain: true)
        #expect("\(denied)".hasPrefix("denied: "))
        // The explanation's text is the summary; its trace adds every evaluation.
        let explanation = try #require(denied.explanation)
        #expect("\(explanation)" == explanation.text)
        #expect(explanation.text.hasPrefix("set /n: denied: newData.val() > data.val() was false: 0 > 1\n"))
        #expect(explanation.trace.hasPrefix(explanation.text) && explanation.trace.count > explanation.text.count)
        #expect(!explanation.text.contains("→"))
        let stale = database.compareAndSet(path: "/n", expectedHash: "", value: 5, rules: rules)
        #expect(!stale.committed && stale.decision.allowed)
        #expect("\(stale)" == "stale: the data changed (hash now \(NodeHash.of(database.node(at: "/n")))); nothing written")
        let committed = database.compareAndSet(path: "/n", expectedHash: NodeHash.of(database.node(at: "/n")), value: 5, rules: rules)
        #expect(committed.committed && "\(committed)".hasPrefix("committed (hash "))
        #expect("\(database.compareAndSet(path: "/n", expectedHash: "", value: 0, rules: rules))".hasPrefix("denied: "))
    }
}
