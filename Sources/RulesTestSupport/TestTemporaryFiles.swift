import Foundation

/// Temporary directories for tests, all inside one directory per test process that is removed
/// when the process exits, so a test run leaves nothing in the temporary directory even where a
/// test does not clean up after itself.
public enum TestTemporaryFiles {
    /// The process's directory: `rules-tests-<pid>` in the temporary directory.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rules-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(at: TestTemporaryFiles.root)
        }
        return url
    }()

    /// A new empty directory whose name starts with `prefix`.
    public static func directory(prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
