import Foundation

/// Temporary directories for tests, all inside one directory per test process.
///
/// Each test removes what it creates (``TemporaryDirectory/remove()``, in a `defer`); the
/// process's directory is removed too when the process exits, so a test run leaves nothing in the
/// temporary directory.
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

/// A new empty directory for one test. Remove it where it is made:
///
/// ```swift
/// let dir = try TemporaryDirectory()
/// defer { dir.remove() }
/// let rules = try dir.write("database.rules.json", text)
/// ```
public struct TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL
    /// The directory's path.
    public var path: String { url.path }

    /// Makes the directory (`<prefix>-<UUID>` inside ``TestTemporaryFiles/root``).
    public init(prefix: String = "rules-test") throws {
        url = try TestTemporaryFiles.directory(prefix: prefix)
    }

    /// The URL of `name` (a relative path) inside the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` to `name` (a relative path; missing folders are made) and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target.path
    }

    /// Writes each file (relative path → text).
    public func write(_ files: [String: String]) throws {
        for (name, text) in files { try write(name, text) }
    }

    /// Removes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
