import RulesTestSupport
import RulesLint
import Foundation
import Testing

@testable import RulesCompiler
@testable import RulesSyntax

/// `docs/lints.md`: one `### code` section per lint with a triggering and a clean example.
enum LintDoc {
    static let url = TestPaths.repository.appendingPathComponent("docs/lints.md")
    static let text: String = (try? String(contentsOf: url, encoding: .utf8)) ?? ""

    /// The sections under "## The lints".
    static let sections: [DocSection] = {
        var out: [DocSection] = []
        var inFence = false
        var inLints = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence && line.hasPrefix("## ") { inLints = line == "## The lints" }
            if !inFence && inLints && line.hasPrefix("### ") {
                out.append(DocSection(code: String(line.dropFirst(4)), lines: []))
            } else if inLints, !out.isEmpty {
                out[out.count - 1].lines.append(line)
            }
        }
        return out
    }()

    /// Replaces the size example's placeholder comment with a comment of that many bytes.
    static func expand(_ body: String) -> String {
        body.replacingOccurrences(of: "/* 240000 bytes */", with: "/*" + String(repeating: "x", count: 240_000 - 4) + "*/")
    }

    /// The `L:C` after "reported at".
    static func position(_ section: DocSection) -> String? {
        guard let line = section.lines.first(where: { $0.hasPrefix("Triggers (reported at `") }) else { return nil }
        return line.dropFirst("Triggers (reported at `".count).split(separator: "`").first.map(String.init)
    }

    /// Compiles and lints an example: compiler diagnostics and lint findings.
    static func run(_ body: String) -> (errors: [Diagnostic], lints: [LintFinding], file: SourceFile) {
        let file = SourceFile(path: "example.json", text: expand(body))
        let result = RulesCompiler.compile(file)
        return (result.diagnostics.filter { $0.severity == .error }, LintRun.findings(result, file: file), file)
    }
}

@Suite struct LintDocTests {
    @Test func everyLintHasOneSection() {
        #expect(!LintDoc.text.isEmpty, "missing \(LintDoc.url.path)")
        let headings = LintDoc.sections.map(\.code)
        #expect(headings == LintCode.allCases.map(\.rawValue))
    }

    /// The index table comes from the registry: one row per lint, in registry order.
    @Test func indexMatchesTheRegistry() {
        var rows: [String] = []
        var inIndex = false
        for line in LintDoc.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") { inIndex = line == "## Index" }
            if inIndex && line.hasPrefix("| [`") { rows.append(line) }
        }
        let expected = Lints.all.map { lint in
            let code = lint.code.rawValue
            let severity = lint.securitySeverity.map { String(format: "%.1f", $0) } ?? "—"
            let summary = lint.summary.replacingOccurrences(of: "|", with: "\\|")
            return "| [`\(code)`](#\(code)) | \(lint.category.rawValue) | \(severity) | \(summary) |"
        }
        #expect(rows == expected, "the index of docs/lints.md should read:\n\(expected.joined(separator: "\n"))")
    }

    @Test(arguments: LintDoc.sections)
    func sectionMatchesTheCatalog(_ section: DocSection) throws {
        let entry = try #require(DiagnosticCatalog.entry(DiagnosticCode(rawValue: section.code)))
        #expect(section.severity == "warning")
        #expect(section.lines.contains(entry.summary))
        #expect(section.lines.contains(entry.help))
        // The security severity SARIF reports, stated under the heading of each security lint.
        let code = try #require(LintCode(rawValue: section.code))
        let stated = section.lines.first { $0.hasPrefix("**Security severity:** ") }.map { String($0.dropFirst("**Security severity:** ".count)) }
        #expect(stated == code.securitySeverity.map { String(format: "%.1f", $0) })
    }

    @Test(arguments: LintDoc.sections)
    func triggeringExampleReportsExactlyItsCode(_ section: DocSection) throws {
        let examples = section.examples.filter { $0.language == "json" }
        #expect(examples.count == 2, "a triggering and a non-triggering example")
        let trigger = try #require(examples.first)
        let run = LintDoc.run(trigger.body)
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(Set(run.lints.map(\.code.rawValue)) == [section.code], "\(run.lints.map(\.diagnostic))")
        let first = try #require(run.lints.first)
        #expect(run.file.location(of: first.diagnostic.range).description == LintDoc.position(section))
        if let message = section.message {
            #expect(first.diagnostic.message == message)
        }
    }

    @Test(arguments: LintDoc.sections)
    func cleanExampleDoesNotReportIt(_ section: DocSection) throws {
        let examples = section.examples.filter { $0.language == "json" }
        let clean = try #require(examples.dropFirst().first)
        let run = LintDoc.run(clean.body)
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(!run.lints.contains { $0.code.rawValue == section.code }, "\(run.lints.map(\.diagnostic))")
        #expect(run.lints.isEmpty, "the clean example should be clean of every lint: \(run.lints.map(\.diagnostic))")
    }
}
