import Foundation
import RulesSyntax

/// The directory that reports name files relative to: SARIF's `%SRCROOT%`.
///
/// It is, in order: the directory given by `--source-root`; the directory of the project
/// configuration file in use; the nearest directory at or above the working directory that holds
/// `.git` (a repository's root); the working directory. So a file has the same relative name
/// whichever directory of the repository `rules check` runs from.
public struct SourceRoot: Sendable, Hashable {
    /// The absolute, standardized directory, without a trailing `/`.
    public let path: String

    /// A root at `path` (made absolute against `workingDirectory`).
    public init(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.path = LexicalPath.absolute(path, workingDirectory: workingDirectory)
    }

    /// The root for a run: see the type's documentation.
    public static func find(explicit: String?, configurationDirectory: String?, workingDirectory: String = FileManager.default.currentDirectoryPath) -> SourceRoot {
        if let explicit { return SourceRoot(explicit, workingDirectory: workingDirectory) }
        if let configurationDirectory { return SourceRoot(configurationDirectory, workingDirectory: workingDirectory) }
        for dir in LexicalPath.ancestors(of: LexicalPath.absolute(workingDirectory, workingDirectory: "/"))
        where FileManager.default.fileExists(atPath: LexicalPath.child(".git", of: dir)) {
            return SourceRoot(dir)
        }
        return SourceRoot(workingDirectory, workingDirectory: workingDirectory)
    }

    /// `file://` URI of the root, ending in `/` (as `originalUriBaseIds` requires).
    public var uri: String { "file://" + DiagnosticReporter.uriReference(path == "/" ? "/" : path + "/") }

    /// The path of `file` relative to the root, or nil when it is outside it.
    public func relative(_ file: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        let full = LexicalPath.absolute(file, workingDirectory: workingDirectory)
        let prefix = path == "/" ? "/" : path + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : nil
    }
}
