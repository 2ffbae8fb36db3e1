import RulesTestSupport
import Foundation
import Testing

@testable import RulesCommands
@testable import RulesCompiler
@testable import RulesLint
@testable import RulesSyntax

/// The real-world corpus carried in `Tests/Data/corpus`.
enum Corpus {
    static let directory: URL = TestPaths.corpus

    /// Every project's rules file: each folder's `*.json` except targaryen's test file.
    static func rulesFiles() -> [String] {
        let manager = FileManager.default
        var out: [String] = []
        for folder in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let folderURL = directory.appendingPathComponent(folder)
            for name in (try? manager.contentsOfDirectory(atPath: folderURL.path)) ?? [] where name.hasSuffix(".json") {
                if folder == "targaryen-integration" && name == "tests.json" { continue }
                out.append(folderURL.appendingPathComponent(name).path)
            }
        }
        return out.sorted()
    }
}

/// The `rules` executable built next to the tests.
enum RulesBinary {
    static let path = TestPaths.repository.appendingPathComponent(".build/debug/rules").path
    static var isPresent: Bool { FileManager.default.isExecutableFile(atPath: path) }
    /// The trait of a test that runs the binary: skipped, with the reason, when it is not built.
    static var required: ConditionTrait {
        .enabled(if: isPresent, "no built rules binary at .build/debug/rules; run `swift build` first")
    }

    /// Runs it and returns the exit status and standard output.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, directory: String? = nil
    ) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdin = Pipe()
        process.standardInput = stdin
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["FORCE_COLOR"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read before waiting so a large output cannot fill the pipe and block the child.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

@Suite struct CheckCommandTests {
    // MARK: - check(_:) and exit codes

    @Test func checkReadsAndCompilesAFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", sampleRules)
        let result = CheckCommand.check(path)
        #expect(result.readError == nil)
        #expect(result.path == path)
        #expect(result.file?.path == path)
        #expect(result.diagnostics.map(\.code) == [.unknownVariable, .jsonTrailingComma])
        #expect(result.count(.error) == 1)
        #expect(result.count(.warning) == 1)
        #expect(CheckCommand.exitCode([result]) == 1)
    }

    @Test func exitCodes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let clean = CheckCommand.check(try dir.write("clean.json", "{\"rules\": {\".read\": true}}"))
        let warned = CheckCommand.check(try dir.write("warned.json", "{\"rules\": {\".read\": true,}}"))
        let broken = CheckCommand.check(try dir.write("broken.json", "{\"rules\": {\".read\": \"nope\"}}"))
        let missing = CheckCommand.check(dir.url.appendingPathComponent("missing.json").path)
        #expect(CheckCommand.exitCode([clean]) == 0)
        #expect(CheckCommand.exitCode([clean, warned]) == 0)
        #expect(CheckCommand.exitCode([clean, broken]) == 1)
        #expect(CheckCommand.exitCode([missing]) == 2)
        #expect(CheckCommand.exitCode([broken, missing, clean]) == 2)
        #expect(missing.readError == "no such file")
        #expect(missing.file == nil)
    }

    @Test func directoryGivenAsAFileIsUnreadable() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = CheckCommand.check(dir.url.path)
        #expect(result.readError != nil)
        #expect(CheckCommand.exitCode([result]) == 2)
    }

    @Test func directoriesAreSearchedForRulesFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("database.rules.json", "{}")
        try dir.write("sub/other.rules.json", "{}")
        try dir.write("sub/package.json", "{}")
        try dir.write("notes.txt", "")
        let found = RulesFileFinder.expand([dir.url.path]).map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(found == ["database.rules.json", "other.rules.json"])
        #expect(RulesFileFinder.expand(["a.json"]) == ["a.json"])
    }

    @Test func argumentsParse() throws {
        let command = try CheckCommand.parse(["a.json", "b.json", "--format", "sarif", "--color", "never"])
        #expect(command.paths == ["a.json", "b.json"])
        #expect(command.format == .sarif)
        #expect(command.color == .never)
        #expect(throws: (any Error).self) { try CheckCommand.parse(["a.json", "--format", "xml"]) }
    }

    // MARK: - The built binary

    @Test(RulesBinary.required)
    func binaryReportsErrorsWithStatusOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", sampleRules)
        let run = try RulesBinary.run(["check", path, "--color", "never"])
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("\(path):3:31: error: Unknown variable 'foo'. [unknown-variable]\n"))
        #expect(run.output.contains("\(path):4:12: warning: Trailing comma. [json-trailing-comma]\n"))
        #expect(run.output.hasSuffix("1 error, 1 warning in 1 file.\n"))
        #expect(!run.output.contains("\u{1B}["))
    }

    @Test(RulesBinary.required)
    func binaryFormats() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", sampleRules)
        let json = try RulesBinary.run(["check", path, "--format", "json"])
        #expect(json.status == 1)
        let root = try parseJSON(json.output)
        #expect(root["errors"] as? Int == 1)
        let sarif = try RulesBinary.run(["check", path, "--format", "sarif"])
        #expect(try parseJSON(sarif.output)["version"] as? String == "2.1.0")
        let github = try RulesBinary.run(["check", path, "--format", "github"])
        #expect(github.output.hasPrefix("::error file="))
        let coloured = try RulesBinary.run(["check", path, "--color", "always"])
        #expect(coloured.output.contains("\u{1B}[1;31merror:"))
    }

    @Test(RulesBinary.required)
    func binaryAcceptsACleanFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", "{\"rules\": {\".read\": \"auth != null\"}}")
        let run = try RulesBinary.run(["check", path])
        #expect(run.status == 0)
        #expect(run.output == "No problems in 1 file.\n")
    }

    @Test(RulesBinary.required)
    func binaryReportsAMissingFileWithStatusTwo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.url.appendingPathComponent("missing.json").path
        let run = try RulesBinary.run(["check", path, "--color", "never"])
        #expect(run.status == 2)
        #expect(run.output.contains("\(path): error: no such file\n"))
    }

    @Test func directorySearchSkipsDependenciesAndDotDirectoriesAndReportsEmptyOnes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("app/database.rules.json", "{}")
        try dir.write("app/node_modules/lib/database.rules.json", "{}")
        try dir.write("app/.firebase/cache.rules.json", "{}")
        try dir.write("app/.build/checkouts/x.rules.json", "{}")
        try dir.write("empty/notes.txt", "")
        let search = RulesFileFinder.search([dir.url.appendingPathComponent("app").path, dir.url.appendingPathComponent("empty").path])
        #expect(search.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["database.rules.json"])
        #expect(search.problems == ["\(dir.url.appendingPathComponent("empty").path): no rules files in this directory (names ending in rules.json or rules.jsonc; node_modules and dot-directories are skipped)"])
        #expect(RulesFileFinder.search(["-"]).files == ["-"])
    }

    @Test func anEmptyNoColorDoesNotTurnColourOff() {
        #expect(!Terminal(.auto, environment: ["NO_COLOR": "1"], isTerminal: true).colors)
        // no-color.org: only a non-empty NO_COLOR counts.
        #expect(Terminal(.auto, environment: ["NO_COLOR": ""], isTerminal: true).colors)
        #expect(!Terminal(.auto, environment: ["NO_COLOR": ""], isTerminal: false).colors)
        #expect(!Terminal(.auto, environment: ["NO_COLOR": "", "TERM": "dumb"], isTerminal: true).colors)
    }

    @Test(RulesBinary.required)
    func binaryFollowsLinterConventions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", sampleRules)
        let warnOnly = try dir.write("warn/database.rules.json", #"{"rules": {".read": true, ".write": "auth != null",}}"#)
        // Nothing to check is an error, not "No problems in 0 files".
        let empty = try dir.write("empty/notes.txt", "")
        let none = try RulesBinary.run(["check", URL(fileURLWithPath: empty).deletingLastPathComponent().path])
        #expect(none.status == 2)
        #expect(none.error.contains("no rules files in this directory"))
        // Standard input, named by --stdin-filename.
        let piped = try RulesBinary.run(["check", "-", "--stdin-filename", "piped.rules.json", "--color", "never"], input: sampleRules)
        #expect(piped.status == 1)
        #expect(piped.output.hasPrefix("piped.rules.json:3:31: error: Unknown variable 'foo'."))
        // --quiet: errors only.
        let quiet = try RulesBinary.run(["check", path, "--quiet", "--color", "never"])
        #expect(quiet.status == 1)
        #expect(!quiet.output.contains("warning:"))
        // --max-warnings.
        let within = try RulesBinary.run(["check", warnOnly, "--max-warnings", "10"])
        #expect(within.status == 0)
        let over = try RulesBinary.run(["check", warnOnly, "--max-warnings", "0"])
        #expect(over.status == 1)
        #expect(over.error.contains("more than --max-warnings 0"))
        // --output-file and --report: several reports in one run.
        let sarif = dir.url.appendingPathComponent("out.sarif").path
        let text = dir.url.appendingPathComponent("out.txt").path
        let both = try RulesBinary.run(["check", path, "--output-file", text, "--report", "sarif=\(sarif)"])
        #expect(both.status == 1 && both.output.isEmpty)
        #expect(try String(contentsOfFile: text, encoding: .utf8).contains("error: Unknown variable 'foo'."))
        #expect(try parseJSON(String(contentsOfFile: sarif, encoding: .utf8))["version"] as? String == "2.1.0")
        let badReport = try RulesBinary.run(["check", path, "--report", "xml=out.xml"])
        #expect(badReport.status == 64)
    }

    /// GitHub places an annotation by the file's path in the repository: from a subdirectory the
    /// annotations name the file relative to the repository's root, as the SARIF report does.
    @Test(RulesBinary.required)
    func binaryGithubAnnotationsNameFilesFromTheRepositoryRoot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("repo/.git").path, withIntermediateDirectories: true)
        try dir.write("repo/app/database.rules.json", sampleRules)
        let app = dir.file("repo/app").path
        let sarifPath = dir.file("out.sarif").path
        let run = try RulesBinary.run(
            ["check", "database.rules.json", "--format", "github", "--report", "sarif=\(sarifPath)"], directory: app)
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("::error file=app/database.rules.json,line=3,col=31,"), "\(run.output)")
        let sarif = try parseJSON(String(contentsOfFile: sarifPath, encoding: .utf8))
        let result = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        #expect((location?["artifactLocation"] as? [String: Any])?["uri"] as? String == "app/database.rules.json")
        // --source-root chooses the root for both.
        let chosen = try RulesBinary.run(["check", "database.rules.json", "--format", "github", "--source-root", "."], directory: app)
        #expect(chosen.output.hasPrefix("::error file=database.rules.json,line=3,"), "\(chosen.output)")
        // A file outside the root keeps the path it was given.
        let outside = try RulesBinary.run(["check", "app/database.rules.json", "--format", "github", "--source-root", "app/nested"],
                                          directory: dir.file("repo").path)
        #expect(outside.output.hasPrefix("::error file=app/database.rules.json,line=3,"), "\(outside.output)")
    }

    @Test(RulesBinary.required)
    func binaryChecksTheRulesOfFirebaseJSONWhenGivenNoPath() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("database.rules.json", sampleRules)
        // No firebase.json: the error says so and what to pass instead.
        let nothing = try RulesBinary.run(["check"], directory: dir.url.path)
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("nothing to check: there is no firebase.json here"))
        #expect(nothing.error.contains("`rules check database.rules.json`"))
        #expect(!nothing.error.contains("names no database rules"))
        // A firebase.json without database rules keeps its own message.
        try dir.write("firebase.json", #"{"hosting": {"public": "public"}}"#)
        let noRules = try RulesBinary.run(["check"], directory: dir.url.path)
        #expect(noRules.status == 2)
        #expect(noRules.error.contains("./firebase.json names no database rules file"))
        try dir.write("firebase.json", #"{"database": {"rules": "database.rules.json"}}"#)
        let found = try RulesBinary.run(["check", "--color", "never"], directory: dir.url.path)
        #expect(found.status == 1)
        #expect(found.output.hasPrefix("./database.rules.json:3:31: error: Unknown variable 'foo'."))
    }

    // MARK: - The real-world corpus

    @Test func corpusIsFound() {
        #expect(Corpus.rulesFiles().count >= 6, "no corpus under \(TestPaths.corpus.path)")
    }

    @Test(arguments: Corpus.rulesFiles())
    func corpusFileChecksWithoutErrors(path: String) {
        let result = CheckCommand.check(path)
        #expect(result.readError == nil)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(DiagnosticReporter().text([FileDiagnostics(file: result.file, path: path, diagnostics: errors)]))")
        #expect(CheckCommand.exitCode([result]) == 0)
    }
}

@Suite struct CheckCommandLintTests {
    static let lintRules = """
        {
          "rules": {
            ".read": true,
            "a": {"$b": {".write": "auth != null"}}
          }
        }
        """

    @Test func checkRunsTheLints() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = CheckCommand.check(try dir.write("r.json", Self.lintRules))
        #expect(result.diagnostics.map(\.code) == [LintCode.publicRead.diagnosticCode, LintCode.unvalidatedWrite.diagnosticCode])
        #expect(result.lints.count == 2)
        #expect(CheckCommand.exitCode([result]) == 0)
        #expect(CheckCommand.exitCode([CheckCommand.strict(result)]) == 1)
        #expect(CheckCommand.check(try dir.write("s.json", Self.lintRules), lints: nil).diagnostics.isEmpty)
    }

    @Test func argumentsParse() throws {
        let c = try CheckCommand.parse(["a.json", "--strict", "--disable", "public-read", "--disable", "root-in-write", "--enable", "constant-rule", "--baseline", "b.json", "--update-baseline"])
        #expect(c.strict && c.updateBaseline)
        #expect(c.disabled == ["public-read", "root-in-write"])
        #expect(c.enabled == ["constant-rule"])
        #expect(c.baseline == "b.json")
        #expect(throws: (any Error).self) { try CheckCommand.parse(["a.json", "--config", "c.yaml", "--no-config"]) }
    }

    @Test func sarifDescribesTheLints() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = CheckCommand.check(try dir.write("r.json", Self.lintRules))
        let root = try parseJSON(DiagnosticReporter().report([result], format: .sarif))
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        for lint in LintCode.allCases {
            let rule = try #require(rules.first { $0["id"] as? String == lint.rawValue }, "\(lint)")
            let entry = try #require(DiagnosticCatalog.entry(lint.diagnosticCode))
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == entry.summary)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == entry.help)
            #expect((rule["help"] as? [String: Any])?["text"] as? String == entry.help)
            #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
            #expect(rule["helpUri"] as? String == RulesTool.documentationBase + "lints.md#\(lint.rawValue)")
            let properties = try #require(rule["properties"] as? [String: Any])
            #expect((properties["tags"] as? [String])?.contains(lint.category.rawValue) == true)
            #expect((properties["security-severity"] as? String).flatMap(Double.init) == lint.securitySeverity)
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["public-read", "unvalidated-write"])
        for r in results {
            let index = try #require(r["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == r["ruleId"] as? String)
            #expect(r["level"] as? String == "warning")
        }
        let strict = try parseJSON(DiagnosticReporter().report([CheckCommand.strict(result)], format: .sarif))
        let strictResults = ((strict["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(strictResults.map { $0["level"] as? String } == ["error", "error"])
    }

    @Test(RulesBinary.required)
    func binaryStrictDisableAndUnknownCodes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", Self.lintRules)
        let plain = try RulesBinary.run(["check", path, "--color", "never"])
        #expect(plain.status == 0)
        #expect(plain.output.contains("\(path):3:5: warning: Anyone, signed in or not, can read the whole database"))
        #expect(plain.output.hasSuffix("0 errors, 2 warnings in 1 file.\n"))
        let strict = try RulesBinary.run(["check", path, "--strict", "--color", "never"])
        #expect(strict.status == 1)
        #expect(strict.output.hasSuffix("2 errors, 0 warnings in 1 file.\n"))
        let disabled = try RulesBinary.run(["check", path, "--strict", "--disable", "public-read", "--disable", "unvalidated-write"])
        #expect(disabled.status == 0)
        #expect(disabled.output == "No problems in 1 file.\n")
        let unknown = try RulesBinary.run(["check", path, "--disable", "public-reed"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown lint code 'public-reed'"))
        let unknownEnable = try RulesBinary.run(["check", path, "--enable", "nope"])
        #expect(unknownEnable.status == 2)
    }

    @Test(RulesBinary.required)
    func binaryBaselineRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", Self.lintRules)
        let baseline = dir.url.appendingPathComponent("baseline.json").path
        let missing = try RulesBinary.run(["check", path, "--baseline", baseline])
        #expect(missing.status == 2)
        let update = try RulesBinary.run(["check", path, "--baseline", baseline, "--update-baseline", "--strict"])
        #expect(update.status == 0)
        #expect(update.output == "No problems in 1 file.\n")
        let written = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(written.contains("\"code\": \"public-read\""))
        #expect(written.contains("\"path\": \"/a/$b .write\""))
        // Move the old findings down and add a new one: only the new one is reported.
        let edited = "{\n\n  \"rules\": {\n    \".read\": true,\n    \"z\": {\".write\": \"auth != null\"},\n    \"a\": {\"$b\": {\".write\": \"auth != null\"}}\n  }\n}\n"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        let after = try RulesBinary.run(["check", path, "--baseline", baseline, "--strict", "--color", "never"])
        #expect(after.status == 1)
        #expect(after.output.contains("\(path):5:11: error: Whoever this .write admits can store any value at /z"))
        #expect(after.output.hasSuffix("1 error, 0 warnings in 1 file.\n"))
        try Data("{".utf8).write(to: URL(fileURLWithPath: baseline))
        #expect(try RulesBinary.run(["check", path, "--baseline", baseline]).status == 2)
    }

    @Test(RulesBinary.required)
    func binaryBaselineMatchesPathsHoweverTypedAndKeepsFilesNotChecked() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let root = dir.url.resolvingSymlinksInPath().path
        let first = try dir.write("a/database.rules.json", Self.lintRules)
        _ = try dir.write("b/database.rules.json", Self.lintRules)
        // Written for both files, by absolute path.
        let both = try RulesBinary.run(["check", first, root + "/b/database.rules.json", "--baseline", "baseline.json", "--update-baseline"], directory: root)
        #expect(both.status == 0)
        let written = try String(contentsOfFile: root + "/baseline.json", encoding: .utf8)
        #expect(written.contains("\"file\": \"a/database.rules.json\"") && written.contains("\"file\": \"b/database.rules.json\""))
        // Matched when typed as ./a/database.rules.json, a/./database.rules.json or a//database.rules.json.
        for typed in ["./a/database.rules.json", "a/./database.rules.json", "a//database.rules.json"] {
            let run = try RulesBinary.run(["check", typed, "--baseline", "baseline.json", "--strict"], directory: root)
            #expect(run.status == 0, "\(typed): \(run.output)")
        }
        // Updating from a run that checks only a/ keeps b/'s entries.
        let partial = try RulesBinary.run(["check", "a", "--baseline", "baseline.json", "--update-baseline"], directory: root)
        #expect(partial.status == 0)
        #expect(try String(contentsOfFile: root + "/baseline.json", encoding: .utf8) == written)
    }

    @Test func canonicalPathsAreRelativeToTheWorkingDirectory() {
        #expect(CheckCommand.canonicalPath("./a/./b.json", workingDirectory: "/w") == "a/b.json")
        #expect(CheckCommand.canonicalPath("/w/a//b.json", workingDirectory: "/w") == "a/b.json")
        #expect(CheckCommand.canonicalPath("/w/a/b.json", workingDirectory: "/w/") == "a/b.json")
        #expect(CheckCommand.canonicalPath("/other/b.json", workingDirectory: "/w") == "/other/b.json")
        #expect(CheckCommand.canonicalPath("../b.json", workingDirectory: "/w") == "../b.json")
    }

    @Test func examplesAreLintClean() throws {
        let files = RulesFileFinder.expand([TestPaths.examples.path])
        #expect(!files.isEmpty)
        for path in files {
            let result = CheckCommand.check(path)
            #expect(result.diagnostics.isEmpty, "\(DiagnosticReporter().text([result]))")
        }
    }
}

/// The string bombs of a rules file, run by the built `rules` binary under a 4 GB address-space
/// limit: each is denied with a runtime error, and the process neither crashes nor runs out of
/// memory.
@Suite struct StringBombTests {
    @Test func rulesTestDeniesTheBombsUnderAFourGigabyteLimit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let chain = "'aaaaaaaaaa'" + String(repeating: ".replace('','aaaaaaaaaa')", count: 7)
        try dir.write("database.rules.json", """
            {"rules": {".read": "\(chain).length > 0", "q": {".write": "newData.val().replace('', newData.val()).length > 0"}}}
            """)
        let big = String(repeating: "x", count: 60_000)
        try dir.write("bomb.test.yaml", """
            rules: database.rules.json
            tests:
              - name: a replace chain
                read: /
                expect: allow
              - name: a quadratic replace over a 60 KB string
                as: {uid: alice}
                set: /q
                value: "\(big)"
                expect: allow
            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v 4194304; exec \"$0\" test \"$1\"", RulesBinary.path, dir.url.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // The expectations say "allow", so both fail and print their explanations.
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(text)")
        #expect(text.contains("0 passed, 2 failed"))
        #expect(text.contains("replace() would make a string of 3600120000 bytes, over the 10485760-byte limit."))
        #expect(text.contains("over the 10485760-byte limit."))
    }
}
