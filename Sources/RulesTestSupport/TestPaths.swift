import Foundation

/// Paths of the repository and of the shared material beside it (`../shared`).
public enum TestPaths {
    /// The repository root (two levels above this folder).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared` next to the repository.
    public static let shared: URL = repository.deletingLastPathComponent().appendingPathComponent("shared")
    /// The real-world rules corpus.
    public static let corpus: URL = shared.appendingPathComponent("corpus")
    /// The conformance fixtures.
    public static let conformance: URL = shared.appendingPathComponent("conformance")
    /// The bundled examples.
    public static let examples: URL = repository.appendingPathComponent("rules-examples")
}
