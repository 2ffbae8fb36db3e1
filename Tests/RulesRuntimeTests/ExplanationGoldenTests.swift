import Foundation
import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// The whole text of explanations of representative denials on the bundled examples
/// (`rules-examples/`), compared with the files in `Golden/`. To rewrite those files after an
/// intended change to the rendering, run the suite with `UPDATE_GOLDEN=1`:
///
///     UPDATE_GOLDEN=1 swift test --filter ExplanationGoldenTests
///
/// and review the diff. The texts are deterministic: fixed data, clock and users, and the rules
/// file named by its path from the repository root.
@Suite struct ExplanationGoldenTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let now: Double = 1_700_000_000_000

    /// An example's rules, compiled with the path from the repository root.
    static func engine(_ example: String) throws -> RulesEngine {
        let path = "rules-examples/\(example)/database.rules.json"
        let data = try Data(contentsOf: repository.appendingPathComponent(path))
        let result = RulesCompiler.compile(SourceFile(path: path, bytes: [UInt8](data)))
        return RulesEngine(ruleset: try #require(result.ruleset, "\(path) does not compile"))
    }

    /// Alice's post p1 and its copy under user-posts, no stars yet (as in blog.test.yaml).
    static let blogData = """
        {"posts": {"p1": {"uid": "alice", "author": "Alice", "title": "Hello", "body": "First post", "starCount": 0}},
         "user-posts": {"alice": {"p1": {"uid": "alice", "author": "Alice", "title": "Hello", "body": "First post", "starCount": 0}}}}
        """

    static func user(_ uid: String) -> AuthValue { .user(uid: uid) }

    /// Compares an explanation with its golden file, or rewrites the file under `UPDATE_GOLDEN`.
    func check(_ name: String, _ decision: Decision, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = try #require(decision.explanation?.trace, sourceLocation: sourceLocation)
        let url = Self.goldenDirectory.appendingPathComponent(name + ".txt")
        let environment = ProcessInfo.processInfo.environment
        if environment["UPDATE_GOLDEN"] != nil || environment["RECORD_GOLDEN"] != nil {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "\(name).txt differs; rerun with UPDATE_GOLDEN=1 to rewrite it if the change is intended\n\(text)",
                sourceLocation: sourceLocation)
    }

    /// The first line keeps within 120 columns; the source line and its carets (the third and
    /// fourth) within 120 once `rules test` has indented them by 10.
    func checkWidth(_ decision: Decision, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let lines = (decision.explanation?.trace ?? "").split(separator: "\n")
        #expect(lines.count >= 4, sourceLocation: sourceLocation)
        guard lines.count >= 4 else { return }
        #expect(lines[0].count <= 120, "too wide: \(lines[0])", sourceLocation: sourceLocation)
        for line in lines[2...3] {
            #expect(line.count + 10 <= 120, "too wide: \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func deniedSet() throws {
        // Bob retitles Alice's post: the title's .write fails on its second conjunct.
        let engine = try Self.engine("blog")
        let d = engine.decide(.set(path: "/posts/p1/title", value: "Mine now"), on: try DataNode.fromJSON(Self.blogData),
                              auth: Self.user("bob"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let first = d.explanation?.trace.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "set /posts/p1/title: denied: data.parent().child('uid').val() === auth.uid was false: 'alice' === 'bob'")
        checkWidth(d)
        try check("blog-denied-set", d)
    }

    @Test func deniedUpdateWithSeveralPaths() throws {
        // Bob stars p1 and moves both counters by two: one atomic update of three paths. The
        // ancestor .write rules shared by the paths are shown once.
        let engine = try Self.engine("blog")
        let d = engine.decide(.update(path: "/", values: [
            ("posts/p1/stars/bob", true),
            ("posts/p1/starCount", 2),
            ("user-posts/alice/p1/starCount", 2),
        ]), on: try DataNode.fromJSON(Self.blogData), auth: Self.user("bob"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let text = d.explanation?.trace ?? ""
        #expect(text.contains("(also for 1 other path)"))
        checkWidth(d)
        try check("blog-denied-update", d)
    }

    @Test func hasChildrenNamesTheMissingKeys() throws {
        // A new post without its body.
        let engine = try Self.engine("blog")
        let d = engine.decide(.set(path: "/posts/p3", value: ["uid": "alice", "author": "Alice", "title": "T", "starCount": 0]),
                              on: try DataNode.fromJSON(Self.blogData), auth: Self.user("alice"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let first = d.explanation?.trace.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "set /posts/p3: denied: newData.hasChildren(['uid', 'author', 'title', 'body', 'starCount']) was false: missing 'body'")
        checkWidth(d)
        try check("blog-missing-children", d)
    }

    @Test func longSourceLineIsCutAroundTheCarets() throws {
        // The copy's title must equal the post's: its .validate is on a 139-column line.
        let engine = try Self.engine("blog")
        let d = engine.decide(.set(path: "/user-posts/alice/p1/title", value: "Changed"),
                              on: try DataNode.fromJSON(Self.blogData), auth: Self.user("alice"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let lines = (d.explanation?.trace ?? "").split(separator: "\n").map(String.init)
        #expect(lines.count > 4)
        if lines.count > 4 {
            #expect(lines[2].hasPrefix("    …") || lines[2].hasSuffix("…"), "\(lines[2])")
            #expect(lines[3].contains("^"))
        }
        checkWidth(d)
        try check("blog-long-line", d)
    }

    @Test func deniedReadInAnotherExample() throws {
        // A user of another org reads acme's data (multitenant): no .read grants it.
        let engine = try Self.engine("multitenant")
        let d = engine.decide(.read(path: "/orgs/acme"), on: try DataNode.fromJSON(#"{"orgs": {"acme": {"name": "Acme", "plan": "team"}}}"#),
                              auth: .user(uid: "mallory", claims: ["org": "globex"]), now: Self.now, explain: true)
        #expect(!d.allowed)
        checkWidth(d)
        try check("multitenant-denied-read", d)
    }

    /// A guess compared with a PIN the caller may not read, explained for the caller: the PIN
    /// is withheld wherever it would show, and the rule that read the root is left out.
    @Test func redactedForTheCaller() throws {
        let source = """
            {"rules": {
              ".write": "root.child('pin').val() === 'open'",
              "pin": {".read": false},
              "guess": {".write": "auth != null && newData.val() === root.child('pin').val()"}
            }}
            """
        let result = RulesCompiler.compile(SourceFile(path: "pin.rules.json", text: source))
        let engine = RulesEngine(ruleset: try #require(result.ruleset))
        let data = try DataNode.fromJSON(#"{"pin": "4821"}"#)
        let d = engine.decide(.set(path: "/guess", value: "0000"), on: data, auth: Self.user("mallory"), now: Self.now,
                              explain: true, redactUnreadable: true)
        #expect(!d.allowed)
        #expect(d.explanation?.trace.contains("4821") == false)
        try check("pin-denied-set-redacted", d)
    }

    /// A counter that moves by one either way, written 9 over 5: the explanation names both
    /// alternatives of the `||`, each with its values, in the first line and in the trace.
    @Test func everyAlternativeOfAnOrIsShown() throws {
        let source = """
            {"rules": {"n": {".write": "newData.val() === data.val() + 1 || newData.val() === data.val() - 1"}}}
            """
        let result = RulesCompiler.compile(SourceFile(path: "counter.rules.json", text: source))
        let engine = RulesEngine(ruleset: try #require(result.ruleset))
        let d = engine.decide(.set(path: "/n", value: 9), on: try DataNode.fromJSON(#"{"n": 5}"#),
                              auth: Self.user("alice"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let first = d.explanation?.trace.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "set /n: denied: newData.val() === data.val() + 1 was false: 9 === 6; newData.val() === data.val() - 1 was false: 9 === 4")
        #expect(d.explanation?.decisive?.falseAlternatives.count == 2)
        checkWidth(d)
        try check("counter-denied-or", d)
    }

    /// Bob unstars p1 (starred by him and Carol, count 2) but moves the count by two
    /// (`increment(-2)`): the star's `.write` names the count alternative, not only
    /// `!data.exists()`.
    @Test func unstarByTwoNamesTheCountAlternative() throws {
        let engine = try Self.engine("blog")
        let data = """
            {"posts": {"p1": {"uid": "alice", "author": "Alice", "title": "Hello", "body": "First post", "starCount": 2,
                              "stars": {"bob": true, "carol": true}}}}
            """
        let d = engine.decide(.update(path: "/", values: [
            ("posts/p1/stars/bob", .null),
            ("posts/p1/starCount", .serverValue(.increment(-2))),
        ]), on: try DataNode.fromJSON(data), auth: Self.user("bob"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let first = d.explanation?.trace.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("!data.exists() was false"), "\(first)")
        #expect(first.contains("was false: 0 === 1"), "\(first)")
        #expect(first.count <= 120, "\(first)")
        checkWidth(d)
        try check("blog-unstar-by-two", d)
    }
}

extension ExplanationGoldenTests {
    /// The guide's first `toggleStar`: a transaction over the whole post, which the blog's rules
    /// deny by design (only the post's author writes it whole; a star is written at its own
    /// location). The explanation names the rules below the post that a write there never
    /// consults, and what to do instead.
    @Test func aWriteAboveTheRulesThatWouldAllowItNamesThemAndTheWayOut() throws {
        let engine = try Self.engine("blog")
        let d = engine.decide(.set(path: "/posts/p1", value: ["uid": "alice", "author": "Alice", "title": "Hello", "body": "First post", "starCount": 1, "stars": ["bob": true]]),
                              on: try DataNode.fromJSON(Self.blogData), auth: Self.user("bob"), now: Self.now, explain: true)
        #expect(!d.allowed)
        let hint = try #require(d.explanation?.notConsultedHint)
        #expect(hint.contains("/posts/$postId/starCount/.write"), "\(hint)")
        #expect(hint.hasSuffix("write those locations instead (several at once with a multi-path update)"))
        try check("blog-toggle-star-whole-post", d)
        // A list read where only the items have `.read` rules: rules are not filters.
        let list = engine.decide(.read(path: "/posts"), on: try DataNode.fromJSON(Self.blogData),
                                 auth: Self.user("bob"), now: Self.now, explain: true)
        #expect(list.explanation?.rulesNotConsulted == ["/posts/$postId/.read"])
        // Nothing below: no hint.
        let leaf = engine.decide(.set(path: "/posts/p1/title", value: "x"), on: try DataNode.fromJSON(Self.blogData),
                                 auth: Self.user("bob"), now: Self.now, explain: true)
        #expect(!leaf.allowed && leaf.explanation?.rulesNotConsulted == [])
    }
}
