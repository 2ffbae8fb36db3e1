import DatabaseRules
import Foundation
import RulesTestSupport
import Testing

/// The README's library example is the compiled `ReadmeExample.swift`, and it works.
@Suite struct ReadmeExampleTests {
    static let examplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ReadmeExample.swift").path

    /// The lines between the markers of `ReadmeExample.swift`.
    static func exampleCode() throws -> String {
        let text = try String(contentsOfFile: examplePath, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex(of: "// README example begin"))
        let end = try #require(lines.firstIndex(of: "// README example end"))
        return lines[(begin + 1)..<end].joined(separator: "\n")
    }

    /// The first Swift code block of the README's "The library" section, without its import line.
    static func readmeCode() throws -> String {
        let text = try String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(text.range(of: "## The library"))
        let rest = text[section.upperBound...]
        let open = try #require(rest.range(of: "```swift\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        let code = rest[open.upperBound..<close.lowerBound]
        return code.components(separatedBy: "\n").filter { $0 != "import DatabaseRules" }
            .drop { $0.isEmpty }.joined(separator: "\n")
    }

    @Test func theReadmeShowsTheCompiledExample() throws {
        #expect(try Self.readmeCode() == Self.exampleCode())
    }

    @Test func theExampleStarsOnceAndExplainsTheSecondStar() throws {
        let seed = """
            {"posts": {"p1": {"uid": "bob", "author": "Bob", "title": "t", "body": "b", "starCount": 0}},
             "user-posts": {"bob": {"p1": {"uid": "bob", "author": "Bob", "title": "t", "body": "b", "starCount": 0}}}}
            """
        let service = try StarService(rulesFile: TestPaths.examples.appendingPathComponent("blog/database.rules.json").path, seed: seed)
        #expect(service.star(post: "p1", by: "alice", author: "bob") == nil)
        #expect(service.starCount(of: "p1") == .number(1))
        let why = try #require(service.star(post: "p1", by: "alice", author: "bob"))
        #expect(why.contains("denied"))
        #expect(why.contains("/posts/$postId/stars/$uid/.write"))
        #expect(service.starCount(of: "p1") == .number(1))
    }
}
