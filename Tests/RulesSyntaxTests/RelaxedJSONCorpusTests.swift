import RulesTestSupport
import Foundation
import Testing
@testable import RulesSyntax

/// The real-world rules files in `Tests/Data/corpus/<project>/*.json` (each with its licence).
enum RelaxedJSONCorpus {
    static let directory = TestPaths.corpus.path

    /// Paths of every `*.json` file one folder below the corpus directory, sorted.
    static func files() -> [String] {
        let manager = FileManager.default
        guard let folders = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        var paths: [String] = []
        for folder in folders {
            let folderPath = directory + "/" + folder
            guard let names = try? manager.contentsOfDirectory(atPath: folderPath) else { continue }
            paths += names.filter { $0.hasSuffix(".json") }.map { folderPath + "/" + $0 }
        }
        return paths.sorted()
    }
}

@Suite struct RelaxedJSONCorpusTests {
    @Test func corpusIsFound() {
        #expect(RelaxedJSONCorpus.files().count >= 6)
    }

    @Test(arguments: RelaxedJSONCorpus.files())
    func corpusFileReadsWithoutErrors(path: String) throws {
        let data = try #require(FileManager.default.contents(atPath: path))
        let file = SourceFile(path: path, bytes: Array(data))
        let result = RelaxedJSONReader.read(file)
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        #expect(result.diagnostics.allSatisfy { $0.code == .jsonTrailingComma })
        let root = try #require(result.root)
        #expect(root.members != nil)
        // The document is everything but surrounding whitespace and comments.
        #expect(file.text(of: root.range).hasPrefix("{"))
        #expect(file.text(of: root.range).hasSuffix("}"))
    }

    @Test func achievementsTrailingCommaIsOnlyAWarning() throws {
        let path = RelaxedJSONCorpus.directory + "/achievements/database.rules.json"
        let data = try #require(FileManager.default.contents(atPath: path))
        let file = SourceFile(path: path, bytes: Array(data))
        let result = RelaxedJSONReader.read(file)
        #expect(!result.diagnostics.isEmpty)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && $0.code == .jsonTrailingComma })
        #expect(result.diagnostics.allSatisfy { file.text(of: $0.range) == "," })
        #expect(member(result.root, "rules")?.members?.isEmpty == false)
    }
}
