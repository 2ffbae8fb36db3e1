import Foundation
import RulesCommands
import RulesSyntax
import RulesTestSupport
import Testing

/// SARIF names a file relative to the checked file's repository, whichever directory
/// `rules check` runs from: the URIs and fingerprints are the same byte for byte.
@Suite struct SarifSourceRootTests {
    @Test func sameURIsAndFingerprintsFromInsideAndOutsideTheRepository() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.url.appendingPathComponent("repo/.git").path, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.url.appendingPathComponent("outside").path, withIntermediateDirectories: true)
        let rules = try dir.write("repo/app/db.rules.json", #"{"rules": {".read": true, "a": {".write": "auth != null"}}}"#)
        let absolute = LexicalPath.absolute(rules, workingDirectory: "/")
        let repo = LexicalPath.absolute(dir.url.appendingPathComponent("repo").path, workingDirectory: "/")
        let outside = LexicalPath.absolute(dir.url.appendingPathComponent("outside").path, workingDirectory: "/")
        let checked = [CheckCommand.check(absolute)]
        func identities(from workingDirectory: String) -> [String] {
            let root = SourceRoot.find(explicit: nil, configurationDirectory: nil, files: [absolute], workingDirectory: workingDirectory)
            #expect(root.path == repo)
            // With the root found from the file, the whole log (URIs, fingerprints, base URI) is
            // the same; compare it all.
            return [DiagnosticReporter(sourceRoot: root).sarif(checked).rendered()]
        }
        let inside = identities(from: repo + "/app")
        let fromOutside = identities(from: outside)
        #expect(inside[0].contains("app/db.rules.json") && inside[0].contains("%SRCROOT%") && inside[0].contains("rulesFinding/v1"))
        #expect(inside == fromOutside)
        #expect(SourceRoot.repository(of: absolute) == repo)
    }
}
