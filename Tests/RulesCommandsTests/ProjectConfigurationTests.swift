import Foundation
import RulesTestSupport
import Testing

@testable import RulesCommands
@testable import RulesCompiler
@testable import RulesLint
@testable import RulesSyntax

@Suite struct ProjectConfigurationTests {
    @Test func parsesEveryKey() throws {
        let c = try ProjectConfiguration.parse(
            """
            rules: [database.rules.json, more/]
            lints:
              public-read: off
              root-in-write: warning
              authorization-in-validate: error
            baseline: lint-baseline.json
            documentation: https://example.com/docs/
            """, path: "proj/.database-rules.yaml")
        #expect(c.directory == "proj")
        #expect(c.rules == ["proj/database.rules.json", "proj/more/"])
        #expect(c.lints == [.publicRead: .off, .rootInWrite: .warning, .authorizationInValidate: .error])
        #expect(c.baseline == "proj/lint-baseline.json")
        #expect(c.documentation == "https://example.com/docs/")
        let lints = c.lintConfiguration()
        #expect(!lints.enabled.contains(.publicRead))
        #expect(lints.enabled.contains(.rootInWrite))
        #expect(lints.severities == [.authorizationInValidate: .error])
        // A single rules file may be a plain string; an empty file is an empty configuration.
        #expect(try ProjectConfiguration.parse("rules: a.json", path: ".database-rules.yaml").rules == ["a.json"])
        #expect(try ProjectConfiguration.parse("", path: ".database-rules.yaml") == ProjectConfiguration(path: ".database-rules.yaml", directory: "."))
    }

    /// Each malformed file and the start of its message: file, line, column and what is wrong.
    static let errors: [(String, String)] = [
        ("lint: {}", ".database-rules.yaml:1:1: unknown key 'lint'; the keys are: rules, lints, baseline, documentation"),
        ("lints:\n  public-reed: off", ".database-rules.yaml:2:3: unknown lint code 'public-reed'"),
        ("lints:\n  public-read: loud", ".database-rules.yaml:2:16: the level of public-read must be off, warning or error (got 'loud')"),
        ("lints: [public-read]", ".database-rules.yaml:1:8: lints must map lint codes to off, warning or error"),
        ("rules: []", ".database-rules.yaml:1:8: rules is empty"),
        ("rules: {a: b}", ".database-rules.yaml:1:8: rules must be a file or directory, or a list of them"),
        ("baseline: ''", ".database-rules.yaml:1:11: baseline must be a non-empty string"),
        ("- a\n- b", ".database-rules.yaml:1:1: the configuration must be a mapping"),
        ("rules: [a", ".database-rules.yaml: not valid YAML"),
    ]

    @Test(arguments: errors)
    func malformedFilesAreExplained(_ text: String, _ message: String) {
        #expect {
            try ProjectConfiguration.parse(text, path: ".database-rules.yaml")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    /// A git checkout at `repo/` inside `dir` (only what marks its root), for the tests that
    /// walk up to it.
    static func makeRepository(in dir: TemporaryDirectory) throws {
        try dir.write("repo/.git/HEAD", "ref: refs/heads/main\n")
    }

    @Test func isFoundUpwardUpToTheRepositoryRoot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.makeRepository(in: dir)
        try dir.write("repo/a/b/notes.txt", "")
        let repo = dir.url.appendingPathComponent("repo").path
        #expect(ProjectConfiguration.discover(from: repo + "/a/b") == nil)
        try dir.write("repo/.database-rules.yaml", "rules: x.json\n")
        #expect(ProjectConfiguration.discover(from: repo + "/a/b") == "../../.database-rules.yaml")
        #expect(ProjectConfiguration.discover(from: repo) == ".database-rules.yaml")
        // Above the repository's root is not searched.
        try dir.write(".database-rules.yaml", "rules: y.json\n")
        try FileManager.default.removeItem(atPath: repo + "/.database-rules.yaml")
        #expect(ProjectConfiguration.discover(from: repo + "/a") == nil)
    }

    @Test func sourceRootIsTheRepositoryRoot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.makeRepository(in: dir)
        try dir.write("repo/sub/x.json", "{}")
        let repo = LexicalPath.absolute(dir.url.appendingPathComponent("repo").path, workingDirectory: "/")
        let fromSub = SourceRoot.find(explicit: nil, configurationDirectory: nil, workingDirectory: repo + "/sub")
        #expect(fromSub.path == repo)
        #expect(fromSub.relative("x.json", workingDirectory: repo + "/sub") == "sub/x.json")
        #expect(fromSub.relative("sub/./x.json", workingDirectory: repo) == "sub/x.json")
        #expect(fromSub.relative("/elsewhere/x.json") == nil)
        #expect(fromSub.uri.hasPrefix("file:///") && fromSub.uri.hasSuffix("/repo/"))
        #expect(SourceRoot.find(explicit: "sub", configurationDirectory: "..", workingDirectory: repo).path == repo + "/sub")
        #expect(LexicalPath.absolute("a/../b//./c", workingDirectory: "/w") == "/w/b/c")
    }

    @Test func lintLevelsChangeSeverities() throws {
        let text = #"{"rules": {".read": true, "a": {"$b": {".write": "auth != null"}}}}"#
        let c = try ProjectConfiguration.parse("lints:\n  public-read: error\n  unvalidated-write: off\n", path: ".database-rules.yaml")
        let result = CheckCommand.check(bytes: Array(text.utf8), path: "t.json", lints: c.lintConfiguration())
        #expect(result.diagnostics.map(\.code) == [LintCode.publicRead.diagnosticCode])
        #expect(result.diagnostics.first?.severity == .error)
        #expect(CheckCommand.exitCode([result]) == 1)
        // The command line wins: --disable turns off what the file raised.
        let both = try LintConfiguration.from(enable: [], disable: ["public-read"], base: c.lintConfiguration())
        #expect(CheckCommand.check(bytes: Array(text.utf8), path: "t.json", lints: both).diagnostics.isEmpty)
    }

    @Test(RulesBinary.required)
    func binaryUsesTheConfigurationFromASubdirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.makeRepository(in: dir)
        try dir.write("repo/database.rules.json", #"{"rules": {".read": true, "a": {"$b": {".write": "auth != null"}}}}"#)
        try dir.write("repo/src/notes.txt", "")
        try dir.write("repo/.database-rules.yaml", "rules: database.rules.json\nlints:\n  unvalidated-write: error\n  public-read: off\nbaseline: base.json\n")
        let sub = dir.url.appendingPathComponent("repo/src").path
        let run = try RulesBinary.run(["check", "--color", "never"], directory: sub)
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("../database.rules.json:1:40: error: "), "\(run.output)\(run.error)")
        #expect(!run.output.contains("public-read"))
        // The configured baseline is used by --update-baseline, then hides the finding.
        let update = try RulesBinary.run(["check", "--update-baseline"], directory: sub)
        #expect(update.status == 0, "\(update.output)\(update.error)")
        #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("repo/base.json").path))
        // --no-config ignores the file (and then there is nothing to check here).
        let none = try RulesBinary.run(["check", "--no-config"], directory: sub)
        #expect(none.status == 2)
        // A broken file stops the command with its location.
        try dir.write("repo/.database-rules.yaml", "lints:\n  public-reed: off\n")
        let broken = try RulesBinary.run(["check", "x.json"], directory: sub)
        #expect(broken.status == 2)
        #expect(broken.error.contains("../.database-rules.yaml:2:3: unknown lint code 'public-reed'"))
    }

    @Test(RulesBinary.required)
    func sarifIsTheSameFromEveryWorkingDirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.makeRepository(in: dir)
        try dir.write("repo/rules/database.rules.json", #"{"rules": {".read": true, "a": {"$b": {".write": "auth != nul"}}}}"#)
        let repo = dir.url.appendingPathComponent("repo").path
        let top = try RulesBinary.run(["check", "rules/database.rules.json", "--format", "sarif"], directory: repo)
        let inner = try RulesBinary.run(["check", "database.rules.json", "--format", "sarif"], directory: repo + "/rules")
        #expect(top.status == 1 && inner.status == 1)
        #expect(top.output == inner.output)
        let run = try #require((try parseJSON(top.output)["runs"] as? [[String: Any]])?.first)
        let base = try #require((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])
        #expect(base["uri"] as? String == "file://" + LexicalPath.absolute(repo, workingDirectory: "/") + "/")
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for r in results {
            let artifact = try #require((((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]) as? [String: Any])
            #expect(artifact["uri"] as? String == "rules/database.rules.json")
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
            let print = try #require((r["partialFingerprints"] as? [String: Any])?[DiagnosticReporter.fingerprintKey] as? String)
            #expect(print.count == 18 && print.hasSuffix(":0"))
        }
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["version"] as? String == RulesTool.version)
    }

    @Test func fingerprintsIgnoreLinesAndCountRepeats() throws {
        let before = #"{"rules": {"a": {"$b": {".write": "auth != null"}}}}"#
        let after = "\n\n" + before
        func prints(_ text: String) throws -> [String] {
            let result = CheckCommand.check(bytes: Array(text.utf8), path: "t.json")
            let sarif = try parseJSON(DiagnosticReporter(sourceRoot: SourceRoot("/w", workingDirectory: "/")).report([result], format: .sarif))
            let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
            return results.compactMap { ($0["partialFingerprints"] as? [String: Any])?[DiagnosticReporter.fingerprintKey] as? String }
        }
        let a = try prints(before), b = try prints(after)
        #expect(!a.isEmpty && a == b)
        var counter = FingerprintCounter()
        let one = counter.next(code: LintCode.publicRead.diagnosticCode, location: .string("x"), anchor: "/ .read")
        let two = counter.next(code: LintCode.publicRead.diagnosticCode, location: .string("x"), anchor: "/ .read")
        #expect(one.dropLast(2) == two.dropLast(2) && one.hasSuffix(":0") && two.hasSuffix(":1"))
    }

    @Test func textEndsWithATallyByCode() {
        let text = #"{"rules": {".read": true, "a": {"$b": {".write": "auth != null"}}, "c": {"$d": {".write": "auth != null"}}, "e": {"$f": {".write": "auth != null"}}, "g": {"$h": {".write": "auth != null"}}}}"#
        let result = CheckCommand.check(bytes: Array(text.utf8), path: "t.json")
        let out = DiagnosticReporter().text([result])
        #expect(out.hasSuffix("By code: 4 unvalidated-write, 1 public-read.\n"), "\(out)")
        let small = CheckCommand.check(bytes: Array(#"{"rules": {".read": true}}"#.utf8), path: "t.json")
        #expect(!DiagnosticReporter().text([small]).contains("By code"))
    }
}
