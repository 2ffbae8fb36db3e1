import DatabaseRules
import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax
import RulesTestSupport
import Testing

/// `rules access` on the bundled examples: the text and Markdown tables are golden files
/// (`RECORD_GOLDEN=1 swift test` rewrites them), and the JSON has the documented shape.
@Suite struct AccessTableTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let examples = ["blog", "chat", "multitenant", "queries"]

    static func model(_ example: String) throws -> AccessModel {
        let url = TestPaths.examples.appendingPathComponent("\(example)/database.rules.json")
        let file = SourceFile(path: "database.rules.json", bytes: Array(try Data(contentsOf: url)))
        let result = RulesCompiler.compile(file)
        let tree = try #require(result.tree)
        return AccessModel.build(rules: try Ruleset(file: file), tree: tree)
    }

    static func expect(_ actual: String, matches name: String) throws {
        let url = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try #require(FileManager.default.contents(atPath: url.path), "missing \(name); run RECORD_GOLDEN=1 swift test")
        #expect(actual == String(decoding: expected, as: UTF8.self), "\(name) differs; run RECORD_GOLDEN=1 swift test to re-record")
    }

    @Test(arguments: examples)
    func textAndMarkdownMatchTheGoldenFiles(_ example: String) throws {
        let table = AccessTable(model: try Self.model(example))
        try Self.expect(table.text(), matches: "access-\(example).txt")
        try Self.expect(table.markdown(), matches: "access-\(example).md")
    }

    @Test(arguments: examples)
    func jsonHasTheDocumentedShape(_ example: String) throws {
        let model = try Self.model(example)
        let text = AccessTable(model: model, witnesses: true).json().rendered()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(root.keys) == ["principals", "cells", "decisions"])
        let principals = try #require(root["principals"] as? [[String: Any]])
        #expect(principals.prefix(3).map { $0["name"] as? String } == ["anonymous", "stranger", "owner"])
        let cells = try #require(root["cells"] as? [[String: Any]])
        #expect(cells.count == model.cells.count)
        for c in cells {
            #expect((c["path"] as? String)?.hasPrefix("/") == true)
            #expect(["record", "collection", "other"].contains(c["kind"] as? String ?? ""))
            #expect(["read", "create", "update", "delete", "write"].contains(c["operation"] as? String ?? ""))
            let verdict = try #require(c["verdict"] as? String)
            #expect(["allowed", "never", "escalation"].contains(verdict))
            if verdict == "never" {
                #expect(c["witness"] == nil)
            } else {
                let w = try #require(c["witness"] as? [String: Any])
                #expect(w["steps"] is [Any] && w["now"] is Int && w["auth"] != nil && w["data"] != nil)
                #expect(c["rule"] is String)
            }
        }
    }

    @Test func narrowingByPathAndPrincipal() throws {
        let model = try Self.model("blog")
        let table = AccessTable(model: model, pathPrefix: "/posts", principal: "stranger")
        #expect(table.principals.map(\.name) == ["stranger"])
        #expect(!table.locations.isEmpty)
        #expect(table.locations.allSatisfy { $0.path.hasPrefix("/posts") })
    }
}
