import RulesTestSupport
import Foundation
import RulesLint
import Testing

@testable import RulesCompiler
@testable import RulesSyntax

/// One `### code` section of `docs/diagnostics.md`.
struct DocSection: Sendable, CustomTestStringConvertible {
    var code: String
    var lines: [String]

    var testDescription: String { code }

    var text: String { lines.joined(separator: "\n") }

    /// The value after `**Severity:**`.
    var severity: String? {
        lines.first { $0.hasPrefix("**Severity:** ") }.map { String($0.dropFirst("**Severity:** ".count)) }
    }

    /// The text between backquotes on a `Message: ` line.
    var message: String? {
        guard let line = lines.first(where: { $0.hasPrefix("Message: `") && $0.hasSuffix("`") }) else { return nil }
        return String(line.dropFirst("Message: `".count).dropLast())
    }

    /// The language and body of each fenced block.
    var examples: [(language: String, body: String)] {
        var out: [(String, String)] = []
        var current: (String, [String])?
        for line in lines {
            if line.hasPrefix("```") {
                if let c = current {
                    out.append((c.0, c.1.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else if current != nil {
                current?.1.append(line)
            }
        }
        return out
    }
}

/// The diagnostics reference and the catalog behind it.
enum DiagnosticsDoc {
    static let url = TestPaths.repository.appendingPathComponent("docs/diagnostics.md")

    static let text: String = (try? String(contentsOf: url, encoding: .utf8)) ?? ""

    /// Sections in document order; a section runs to the next heading outside a fenced block.
    static let sections: [DocSection] = {
        var out: [DocSection] = []
        var inSection = false
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence && line.hasPrefix("### ") {
                out.append(DocSection(code: String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), lines: []))
                inSection = true
            } else if !inFence && line.hasPrefix("#") {
                inSection = false
            } else if inSection {
                out[out.count - 1].lines.append(line)
            }
        }
        return out
    }()

    /// Codes whose example cannot be written as a small JSON file (they need a missing file, a huge
    /// or deeply nested input, or bytes that are not UTF-8).
    static let examplesNotInJSON: Set<String> = [
        "unreadable-file", "rules-file-large", "rules-file-too-large", "json-invalid-utf8", "json-too-deep", "expression-too-deep", "expression-too-long",
    ]
}

/// Every `.swift` file under `Sources`.
private func sourceFiles() -> [URL] {
    let root = TestPaths.repository.appendingPathComponent("Sources")
    let names = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
    return names.filter { $0.hasSuffix(".swift") }.sorted().map { root.appendingPathComponent($0) }
}

/// The strings in `text` matched by the first capture group of `pattern`.
private func captures(_ pattern: String, in text: String) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    let ns = text as NSString
    return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
}

@Suite struct DiagnosticsDocTests {
    private var catalogCodes: [String] { DiagnosticCatalog.all.map(\.code.rawValue) }

    @Test func catalogCodesAreUniqueAndWellFormed() throws {
        #expect(Set(catalogCodes).count == catalogCodes.count)
        let names = DiagnosticCatalog.all.map(\.name)
        #expect(Set(names).count == names.count)
        for entry in DiagnosticCatalog.all {
            #expect(try captures("^([a-z0-9]+(?:-[a-z0-9]+)*)$", in: entry.code.rawValue) == [entry.code.rawValue])
            #expect(entry.name.first?.isUppercase == true && !entry.name.contains("-"))
            #expect(!entry.summary.isEmpty && !entry.help.isEmpty)
            #expect(entry.severity != .note)
            #expect(DiagnosticCatalog.entry(entry.code)?.name == entry.name)
        }
    }

    @Test func everyCatalogCodeHasASection() {
        #expect(!DiagnosticsDoc.text.isEmpty, "missing \(DiagnosticsDoc.url.path)")
        let headings = DiagnosticsDoc.sections.map(\.code)
        for code in catalogCodes {
            #expect(headings.contains(code), "docs/diagnostics.md has no '### \(code)'")
        }
        #expect(Set(headings).count == headings.count, "a code is documented twice")
        #expect(Set(headings).isSubset(of: Set(catalogCodes)), "documented but not in the catalog: \(Set(headings).subtracting(catalogCodes))")
        #expect(DiagnosticsDoc.text.contains("### unknown-variable\n"))
    }

    @Test(arguments: DiagnosticsDoc.sections)
    func sectionMatchesTheCatalog(_ section: DocSection) throws {
        let entry = try #require(DiagnosticCatalog.entry(DiagnosticCode(rawValue: section.code)))
        #expect(section.severity == entry.severity.rawValue)
        #expect(section.lines.contains(entry.summary), "the summary line differs from the catalog")
        #expect(section.lines.contains(entry.help), "the help paragraph differs from the catalog")
        #expect(!section.examples.isEmpty, "no example")
    }

    @Test(arguments: DiagnosticsDoc.sections)
    func exampleTriggersItsCode(_ section: DocSection) throws {
        let examples = section.examples
        guard let json = examples.first(where: { $0.language == "json" }) else {
            #expect(DiagnosticsDoc.examplesNotInJSON.contains(section.code), "\(section.code) needs a ```json example")
            return
        }
        let body = section.code == LintCode.rulesSizeNearLimit.rawValue ? LintDoc.expand(json.body) : json.body
        let file = SourceFile(path: "example.json", text: body)
        let result = RulesCompiler.compile(file)
        // Lints run after a clean compile, as in `rules check`.
        let diagnostics = result.diagnostics + LintRun.findings(result, file: file).map(\.diagnostic)
        let d = try #require(diagnostics.first { $0.code.rawValue == section.code }, "\(diagnostics)")
        if let message = section.message {
            #expect(d.message == message)
        }
        for found in diagnostics {
            #expect(DiagnosticCatalog.entry(found.code) != nil, "\(found.code) is emitted but not in the catalog")
        }
    }

    @Test func invalidUTF8ExampleIsWhatItSays() throws {
        // The text example spells the bad byte as <0xE9>; put the byte back and check.
        let section = try #require(DiagnosticsDoc.sections.first { $0.code == "json-invalid-utf8" })
        let example = try #require(section.examples.first)
        let parts = example.body.components(separatedBy: "<0xE9>")
        #expect(parts.count == 2)
        let bytes = Array(parts[0].utf8) + [0xE9] + Array(parts[1].utf8)
        let result = RulesCompiler.compile(SourceFile(path: "x.json", bytes: bytes))
        #expect(result.diagnostics.first?.code == .jsonInvalidUTF8)
        #expect(result.diagnostics.first?.message == section.message)
    }

    @Test func everyDeclaredCodeIsInTheCatalog() throws {
        let files = sourceFiles()
        #expect(files.count > 20, "Sources not found under \(TestPaths.repository.path)")
        var declared: [String] = []
        var literal: [String] = []
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            declared += try captures(#"DiagnosticCode\s*=\s*"([^"]+)""#, in: text)
            declared += try captures(#"DiagnosticCode\(rawValue:\s*"([^"]+)"\)"#, in: text)
            // Codes written as literals where a diagnostic is made: .error("code", ...), Diagnostic(.error, "code", ...).
            literal += try captures(#"\.(?:error|warning)\(\s*"([a-z0-9-]+)""#, in: text)
            literal += try captures(#"Diagnostic\(\s*\.\w+,\s*"([a-z0-9-]+)""#, in: text)
        }
        #expect(declared.count >= 30)
        for code in declared + literal {
            #expect(catalogCodes.contains(code), "\(code) is declared in Sources but missing from DiagnosticCatalog.all")
        }
    }

    @Test func declaredConstantsMatchTheCatalog() {
        // The constants the compiler uses resolve to catalog entries (guards against a typo in a literal).
        let constants: [DiagnosticCode] = [
            .jsonSyntax, .jsonTrailingComma, .jsonDuplicateKey, .jsonInvalidUTF8, .jsonTooDeep,
            .expressionSyntax, .expressionAssignment, .expressionOperator, .expressionTooDeep, .expressionTooLong,
            .rulesMissing, .topLevelKey, .expectedObject, .invalidRuleValue, .invalidIndexOn, .invalidKey,
            .multipleWildcards, .wildcardName, .wildcardShadowed, .unknownVariable, .newDataInRead, .noSuchMember,
            .notAFunction, .invalidOperand, .notBoolean, .argumentCount, .argumentType, .misplacedLiteral, .invalidIndex,
            .regexFlags, .regexUnsupported, .regexAnchor, .regexEmptyAlternative, .regexSyntax, .regexCompile,
            .unreadableFile, .rulesFileLarge, .rulesFileTooLarge,
        ]
        for c in constants {
            #expect(DiagnosticCatalog.entry(c) != nil, "\(c)")
        }
        for lint in LintCode.allCases {
            #expect(DiagnosticCatalog.entry(lint.diagnosticCode)?.severity == .warning, "\(lint)")
        }
        #expect(constants.count + LintCode.allCases.count == DiagnosticCatalog.all.count)
    }
}
