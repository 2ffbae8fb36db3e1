import Foundation
import Testing

@testable import RulesCommands
@testable import RulesCompiler
@testable import RulesSyntax

/// Checks text held in memory, as `rules check` would check a file.
func checked(_ text: String, path: String = "database.rules.json") -> FileDiagnostics {
    let file = SourceFile(path: path, text: text)
    return FileDiagnostics(file: file, path: path, diagnostics: RulesCompiler.compile(file).diagnostics)
}

/// Parses JSON output back into Foundation objects.
func parseJSON(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
}

/// One error and one warning on known columns:
/// line 3: `    ".read": "auth != null && foo == 1",` puts `foo` at column 31;
/// line 4: `    "a": {},` puts the trailing comma at column 12.
let sampleRules = """
    {
      "rules": {
        ".read": "auth != null && foo == 1",
        "a": {},
      }
    }
    """

/// `{"rules": {".read": "` is 21 bytes; `'😀é'` is 8 bytes but 5 UTF-16 units; then ` == `.
/// So `foo` starts at UTF-8 column 34 and UTF-16 column 31, and ends before 37 / 34.
let nonASCIIRules = #"{"rules": {".read": "'😀é' == foo"}}"#

@Suite struct ReporterFormatTests {
    private let reporter = DiagnosticReporter(terminal: .plain)

    // MARK: - Text

    @Test func textFormatIsGccStyleWithExcerptAndSummary() {
        let out = reporter.report([checked(sampleRules, path: "rules.json")], format: .text)
        let expected = """
            rules.json:3:31: error: Unknown variable 'foo'. [unknown-variable]
             3 |     ".read": "auth != null && foo == 1",
               |                               ^~~
            rules.json:4:12: warning: Trailing comma. [json-trailing-comma]
             4 |     "a": {},
               |            ^
            1 error, 1 warning in 1 file.

            """
        #expect(out == expected)
        #expect(!out.contains("\u{1B}["))
    }

    /// A source line wider than the terminal is cut to a window around the finding, `…` where
    /// text is left out, the caret still under the finding.
    @Test func aLongLineIsCutAroundTheFindingOnANarrowTerminal() {
        let padding = String(repeating: "x", count: 200)
        let text = "{\"rules\": {\".read\": \"'\(padding)' == 'a' && foo == 1 && '\(padding)' == 'b'\"}}"
        let out = DiagnosticReporter(terminal: .plain, lineWidth: 80).text([checked(text, path: "r.json")])
        let lines = out.split(separator: "\n").map(String.init)
        let source = try! #require(lines.first { $0.hasPrefix(" 1 | ") })
        let caret = try! #require(lines.first { $0.hasPrefix("   | ") && $0.contains("^") })
        #expect(source.count <= 80, "\(source)")
        #expect(source.contains("…") && source.hasSuffix("…"))
        let column = Array(caret).firstIndex(of: "^")!
        #expect(String(Array(source)[column..<(column + 3)]) == "foo", "\(source)\n\(caret)")
        // Whole lines without a width.
        #expect(DiagnosticReporter(terminal: .plain).text([checked(text, path: "r.json")]).contains(padding))
    }

    /// A file with errors is not linted, and the text report says so.
    @Test func aFileWithErrorsSaysItsLintsWereNotRun() {
        let result = CheckCommand.check(bytes: Array(#"{"rules": {".read": true, ".write": "foo"}}"#.utf8), path: "r.json")
        #expect(result.lintsSkipped)
        let out = reporter.text([result])
        #expect(out.contains("r.json: note: lints were not run: the file has errors"), "\(out)")
        let clean = CheckCommand.check(bytes: Array(#"{"rules": {".read": "auth != null"}}"#.utf8), path: "c.json")
        #expect(!clean.lintsSkipped)
        #expect(!reporter.text([clean]).contains("lints were not run"))
    }

    @Test func caretLinesUpAfterTabsAndMultiByteCharacters() {
        let text = "{\"rules\": {\n\t\".read\": \"'é✓' == foo\"\n}}"
        let out = reporter.text([checked(text, path: "r.json")])
        // The excerpt keeps the tab and uses one space per character (é and ✓ are one column each).
        #expect(out.contains("r.json:2:23: error: Unknown variable 'foo'. [unknown-variable]\n"))
        #expect(out.contains(" 2 | \t\".read\": \"'é✓' == foo\"\n   | \t" + String(repeating: " ", count: 18) + "^~~\n"))
    }

    @Test func multiLineRangeIsUnderlinedToTheEndOfItsFirstLine() {
        let text = "{\"rules\": {\".read\": \"auth.uid +\n 'x'\"}}"
        let out = reporter.text([checked(text, path: "r.json")])
        #expect(out.contains("r.json:1:22: error: Expression must evaluate to a boolean. [not-boolean]\n"))
        #expect(out.contains(" 1 | {\"rules\": {\".read\": \"auth.uid +\n   | " + String(repeating: " ", count: 21) + "^" + String(repeating: "~", count: 9) + "\n"))
    }

    @Test func summaryLines() {
        let clean = checked("{\"rules\": {}}")
        #expect(reporter.summary([clean]) == "No problems in 1 file.")
        #expect(reporter.summary([clean, clean]) == "No problems in 2 files.")
        let twoErrors = checked("{\"rules\": {\".read\": \"a\", \".write\": \"b\"}}")
        #expect(reporter.summary([twoErrors, clean]) == "2 errors, 0 warnings in 2 files.")
        let missing = FileDiagnostics(file: nil, path: "gone.json", diagnostics: [], readError: "no such file")
        #expect(reporter.summary([missing]) == "1 error, 0 warnings in 1 file.")
        #expect(reporter.text([missing]) == "gone.json: error: no such file\n1 error, 0 warnings in 1 file.\n")
    }

    @Test func colourIsOnlyAddedWhenAsked() {
        let files = [checked(sampleRules)]
        let always = DiagnosticReporter(terminal: Terminal(.always, environment: [:])).text(files)
        #expect(always.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        #expect(always.contains("\u{1B}[1;33mwarning:\u{1B}[0m"))
        #expect(always.contains("\u{1B}[1;32m^~~\u{1B}[0m"))
        let never = DiagnosticReporter(terminal: Terminal(.never, environment: ["FORCE_COLOR": "1"])).text(files)
        #expect(!never.contains("\u{1B}"))
        #expect(Terminal(.auto, environment: ["FORCE_COLOR": "1"]).colors)
        #expect(!Terminal(.auto, environment: ["NO_COLOR": "1"]).colors)
        #expect(!Terminal(.auto, environment: ["TERM": "dumb"]).colors)
        // Machine-readable formats never get colour, whatever the terminal.
        let json = DiagnosticReporter(terminal: Terminal(.always, environment: [:])).report(files, format: .json)
        #expect(!json.contains("\u{1B}"))
    }

    // MARK: - JSON

    @Test func jsonShapeAndValues() throws {
        let out = reporter.report([checked(sampleRules, path: "rules.json"), checked("{\"rules\": {}}", path: "ok.json")], format: .json)
        let root = try parseJSON(out)
        #expect(Set(root.keys) == ["diagnostics", "errors", "warnings"])
        #expect(root["errors"] as? Int == 1)
        #expect(root["warnings"] as? Int == 1)
        let items = try #require(root["diagnostics"] as? [[String: Any]])
        #expect(items.count == 2)
        let keys: Set<String> = ["file", "line", "column", "endLine", "endColumn", "severity", "code", "message"]
        #expect(items.allSatisfy { Set($0.keys) == keys })
        let first = items[0]
        #expect(first["file"] as? String == "rules.json")
        #expect(first["line"] as? Int == 3)
        #expect(first["column"] as? Int == 31)
        #expect(first["endLine"] as? Int == 3)
        #expect(first["endColumn"] as? Int == 34)
        #expect(first["severity"] as? String == "error")
        #expect(first["code"] as? String == "unknown-variable")
        #expect(first["message"] as? String == "Unknown variable 'foo'.")
        let second = items[1]
        #expect(second["severity"] as? String == "warning")
        #expect(second["code"] as? String == "json-trailing-comma")
        #expect(second["line"] as? Int == 4)
        #expect(second["column"] as? Int == 12)
        #expect(second["endColumn"] as? Int == 13)
    }

    @Test func jsonColumnsAreUTF8Bytes() throws {
        let root = try parseJSON(reporter.report([checked(nonASCIIRules)], format: .json))
        let item = try #require((root["diagnostics"] as? [[String: Any]])?.first)
        #expect(item["column"] as? Int == 34)
        #expect(item["endColumn"] as? Int == 37)
    }

    @Test func jsonEscapesMessagesAndPaths() throws {
        // A key with a quote, a backslash and a control character survives the round trip.
        let text = #"{"rules": {"a\"b\\c\u0001": {}, "ok": {}}}"#
        let root = try parseJSON(reporter.report([checked(text, path: "dir \"x\"/r.json")], format: .json))
        let item = try #require((root["diagnostics"] as? [[String: Any]])?.first)
        #expect(item["file"] as? String == "dir \"x\"/r.json")
        #expect(item["code"] as? String == "invalid-key")
    }

    @Test func jsonReportsUnreadableFiles() throws {
        let missing = FileDiagnostics(file: nil, path: "gone.json", diagnostics: [], readError: "no such file")
        let root = try parseJSON(reporter.report([missing], format: .json))
        #expect(root["errors"] as? Int == 1)
        let item = try #require((root["diagnostics"] as? [[String: Any]])?.first)
        #expect(item["code"] as? String == "unreadable-file")
        #expect(item["message"] as? String == "no such file")
        #expect(item["file"] as? String == "gone.json")
    }

    // MARK: - SARIF

    @Test func sarifDescribesEveryCodeUsedAndPointsResultsAtThem() throws {
        let files = [
            checked(sampleRules, path: "a/rules.json"),
            checked("{\"rules\": {\"$a\": {}, \"$b\": {}, \"x#\": {}, \".read\": \"data.val().matches(/a/g)\"}}", path: "b.json"),
            FileDiagnostics(file: nil, path: "gone.json", diagnostics: [], readError: "no such file"),
        ]
        let root = try parseJSON(reporter.report(files, format: .sarif))
        #expect(root["version"] as? String == "2.1.0")
        #expect((root["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let runs = try #require(root["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        #expect(run["columnKind"] as? String == "utf16CodeUnits")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "rules")
        #expect(driver["semanticVersion"] as? String == DiagnosticReporter.version)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.count == rules.count)
        #expect(Set(ids).count == ids.count, "rule ids are unique")
        for rule in rules {
            for key in ["shortDescription", "fullDescription", "help"] {
                let text = (rule[key] as? [String: Any])?["text"] as? String
                #expect(text?.isEmpty == false, "\(rule["id"] ?? "?") lacks \(key)")
            }
            let level = ((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String) ?? ""
            #expect(["error", "warning"].contains(level))
        }

        let results = try #require(run["results"] as? [[String: Any]])
        let usedCodes = Set(files.flatMap { $0.diagnostics.map(\.code.rawValue) } + ["unreadable-file"])
        #expect(Set(results.compactMap { $0["ruleId"] as? String }) == usedCodes)
        #expect(usedCodes.isSubset(of: Set(ids)))
        #expect(results.count == files.reduce(0) { $0 + $1.diagnostics.count } + 1)
        for r in results {
            let ruleId = try #require(r["ruleId"] as? String)
            let index = try #require(r["ruleIndex"] as? Int)
            #expect(index >= 0 && index < rules.count)
            #expect(rules[index]["id"] as? String == ruleId)
            let level = try #require(r["level"] as? String)
            let severity = DiagnosticCatalog.entry(DiagnosticCode(rawValue: ruleId))?.severity
            #expect(level == (severity == .warning ? "warning" : "error"))
            #expect(((r["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let location = try #require((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let uri = (location["artifactLocation"] as? [String: Any])?["uri"] as? String
            #expect(["a/rules.json", "b.json", "gone.json"].contains(uri ?? ""))
        }
        // The first result is the unknown variable at 3:31-3:34 (ASCII line: UTF-16 = UTF-8).
        let region = try #require(
            ((results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 3)
        #expect(region["startColumn"] as? Int == 31)
        #expect(region["endLine"] as? Int == 3)
        #expect(region["endColumn"] as? Int == 34)
    }

    @Test func sarifColumnsAreUTF16() throws {
        let root = try parseJSON(reporter.report([checked(nonASCIIRules)], format: .sarif))
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "unknown-variable")
        let region = try #require(
            ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 1)
        #expect(region["startColumn"] as? Int == 31)
        #expect(region["endColumn"] as? Int == 34)
    }

    @Test func sarifURIsArePercentEncoded() throws {
        let root = try parseJSON(reporter.report([checked(sampleRules, path: "my rules/a#1:ü%.json")], format: .sarif))
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        let uri = (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri == "my%20rules/a%231%3A%C3%BC%25.json")
        #expect(DiagnosticReporter.uriReference("/abs/path-1_2.~x/rules.json") == "/abs/path-1_2.~x/rules.json")
    }

    @Test func sarifRuleListIsTheWholeCatalog() throws {
        let root = try parseJSON(reporter.report([checked("{\"rules\": {}}")], format: .sarif))
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ids = (driver["rules"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == DiagnosticCatalog.all.map(\.code.rawValue))
        #expect((run["results"] as? [Any])?.isEmpty == true)
    }

    // MARK: - GitHub annotations

    @Test func githubAnnotationLines() {
        let out = reporter.report([checked(sampleRules, path: "rules.json")], format: .github)
        #expect(out == """
            ::error file=rules.json,line=3,col=31,endLine=3,endColumn=34,title=unknown-variable::Unknown variable 'foo'.
            ::warning file=rules.json,line=4,col=12,endLine=4,endColumn=13,title=json-trailing-comma::Trailing comma.

            """)
    }

    @Test func githubEscapesPropertiesAndData() {
        let file = SourceFile(path: "x", text: "{}")
        let d = Diagnostic(.note, "some-code", "50% done,\r\nnext: a\nb", at: SourceRange(0, 1))
        let path = "dir,with:colon/100%.json"
        let out = reporter.github([FileDiagnostics(file: file, path: path, diagnostics: [d])])
        #expect(out == "::notice file=dir%2Cwith%3Acolon/100%25.json,line=1,col=1,endLine=1,endColumn=2,title=some-code::50%25 done,%0D%0Anext: a%0Ab\n")
        // Message text keeps ':' and ',' (only properties escape them); each annotation is one line.
        #expect(out.split(separator: "\n").count == 1)
        #expect(DiagnosticReporter.data("a\r\nb") == "a%0D%0Ab")
        #expect(DiagnosticReporter.property("a:b,c%\r\n") == "a%3Ab%2Cc%25%0D%0A")
    }

    @Test func githubReportsUnreadableFiles() {
        let missing = FileDiagnostics(file: nil, path: "a,b.json", diagnostics: [], readError: "no such file")
        #expect(reporter.github([missing]) == "::error file=a%2Cb.json,title=unreadable-file::no such file\n")
    }
}
