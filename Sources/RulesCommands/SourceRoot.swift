import Foundation
import RulesSyntax

/// The directory that reports name files relative to: SARIF's `%SRCROOT%`.
///
/// It is, in order: the directory given by `--source-root`; the repository of the first checked
/// file, i.e. the nearest directory at or above the file that holds `.git` or the project
/// configuration file; the directory of the project configuration file in use; the nearest
/// directory at or above the working directory that holds `.git`; the working directory. So a
/// file has the same relative name, and its findings the same fingerprints, whichever directory
/// `rules check` runs from, inside the repository or outside it.
package struct SourceRoot: Sendable, Hashable {
    /// The absolute, standardized directory, without a trailing `/`.
    package let path: String

    /// A root at `path` (made absolute against `workingDirectory`).
    package init(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.path = LexicalPath.absolute(path, workingDirectory: workingDirectory)
    }

    /// The root for a run: see the type's documentation. `files` are the checked paths (`-`,
    /// standard input, is skipped).
    package static func find(
        explicit: String?, configurationDirectory: String?, files: [String] = [],
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> SourceRoot {
        if let explicit { return SourceRoot(explicit, workingDirectory: workingDirectory) }
        if let file = files.first(where: { $0 != "-" }), let root = repository(of: file, workingDirectory: workingDirectory) {
            return SourceRoot(root)
        }
        if let configurationDirectory { return SourceRoot(configurationDirectory, workingDirectory: workingDirectory) }
        for dir in LexicalPath.ancestors(of: LexicalPath.absolute(workingDirectory, workingDirectory: "/"))
        where FileManager.default.fileExists(atPath: LexicalPath.child(".git", of: dir)) {
            return SourceRoot(dir)
        }
        return SourceRoot(workingDirectory, workingDirectory: workingDirectory)
    }

    /// The nearest directory at or above `file`'s directory that holds `.git` or the project
    /// configuration file, if any.
    package static func repository(of file: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        let absolute = LexicalPath.absolute(file, workingDirectory: workingDirectory)
        var isDirectory: ObjCBool = false
        let start: String
        if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue {
            start = absolute
        } else {
            let parts = absolute.split(separator: "/", omittingEmptySubsequences: true).dropLast()
            start = "/" + parts.joined(separator: "/")
        }
        for dir in LexicalPath.ancestors(of: start) {
            for marker in [".git", ProjectConfiguration.fileName] where FileManager.default.fileExists(atPath: LexicalPath.child(marker, of: dir)) {
                return dir
            }
        }
        return nil
    }

    /// `file://` URI of the root, ending in `/` (as `originalUriBaseIds` requires).
    package var uri: String { "file://" + DiagnosticReporter.uriReference(path == "/" ? "/" : path + "/") }

    /// The path of `file` relative to the root, or nil when it is outside it.
    package func relative(_ file: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        let full = LexicalPath.absolute(file, workingDirectory: workingDirectory)
        let prefix = path == "/" ? "/" : path + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : nil
    }
}
