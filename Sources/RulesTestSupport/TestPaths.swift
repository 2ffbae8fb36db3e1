import Foundation

/// Paths of the repository and of the test data it carries (`Tests/Data`).
public enum TestPaths {
    /// The repository root (two levels above this folder).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Data the tests read: the corpus and the conformance fixtures, each with its licence.
    public static let data: URL = repository.appendingPathComponent("Tests/Data")
    /// The real-world rules corpus.
    public static let corpus: URL = data.appendingPathComponent("corpus")
    /// The conformance fixtures.
    public static let conformance: URL = data.appendingPathComponent("conformance")
    /// The bundled examples.
    public static let examples: URL = repository.appendingPathComponent("rules-examples")
}
