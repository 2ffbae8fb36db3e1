import Foundation

/// Expands command-line paths: files as given, directories searched recursively for rules files.
package enum RulesFileFinder {
    /// What a search found: the files, in order, and the paths that gave none (each with why).
    package struct Search: Equatable, Sendable {
        package var files: [String] = []
        package var problems: [String] = []
    }

    /// Directories never searched: dependencies, build output and dot-directories (`.git`,
    /// `.build`, `.firebase`, ...).
    package static func isSkippedDirectory(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "node_modules" || name == "Pods"
    }

    /// Files as given (`-` is standard input); directories searched for files whose names end in
    /// `rules.json` or `rules.jsonc` (`database.rules.json`, `firestore-rules.json`, ...), sorted,
    /// skipping ``isSkippedDirectory(_:)``. A directory with no rules file, or one that cannot be
    /// read, is a problem.
    package static func search(_ paths: [String]) -> Search {
        var out = Search()
        let manager = FileManager.default
        for p in paths {
            var isDir: ObjCBool = false
            guard p != "-", manager.fileExists(atPath: p, isDirectory: &isDir), isDir.boolValue else {
                out.files.append(p)
                continue
            }
            guard manager.isReadableFile(atPath: p), let walker = manager.enumerator(atPath: p) else {
                out.problems.append("\(p): cannot read the directory")
                continue
            }
            var found: [String] = []
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory {
                    if isSkippedDirectory(name) { walker.skipDescendants() }
                    continue
                }
                if isRulesFile(name) { found.append(relative) }
            }
            if found.isEmpty {
                out.problems.append("\(p): no rules files in this directory (names ending in rules.json or rules.jsonc; node_modules and dot-directories are skipped)")
            }
            let base = p.hasSuffix("/") ? String(p.dropLast()) : p
            out.files += found.sorted().map { base + "/" + $0 }
        }
        return out
    }

    /// The files of ``search(_:)``, without its problems.
    package static func expand(_ paths: [String]) -> [String] {
        search(paths).files
    }

    /// True for names that look like rules files.
    package static func isRulesFile(_ name: String) -> Bool {
        name.hasSuffix("rules.json") || name.hasSuffix("rules.jsonc")
    }
}
