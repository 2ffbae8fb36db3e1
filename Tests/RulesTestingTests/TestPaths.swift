import Foundation

/// Paths of the repository and of the shared material beside it (`../shared`).
enum TestPaths {
    /// The repository root (two levels above this test folder).
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared` next to the repository.
    static let shared: URL = repository.deletingLastPathComponent().appendingPathComponent("shared")
    /// The real-world rules corpus.
    static let corpus: URL = shared.appendingPathComponent("corpus")
    /// The conformance fixtures.
    static let conformance: URL = shared.appendingPathComponent("conformance")
    /// The bundled examples.
    static let examples: URL = repository.appendingPathComponent("rules-examples")
}
