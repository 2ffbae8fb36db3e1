/// File paths resolved as text, without asking the file system (no symbolic links followed):
/// the one place where `rules` normalises the paths it is given and walks up directories.
package enum LexicalPath {
    /// `.` segments and doubled slashes dropped, `..` applied to the segment before it (kept at
    /// the start of a relative path, dropped at the root of an absolute one); `.` for an empty
    /// relative result.
    package static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if segment == ".." && absolute {
                continue
            } else {
                parts.append(segment)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// `path` made absolute against `workingDirectory` (itself absolute), then normalised.
    package static func absolute(_ path: String, workingDirectory: String) -> String {
        normalize(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
    }

    /// The directories from `directory` (absolute, normalised) up to `/`, nearest first.
    package static func ancestors(of directory: String) -> [String] {
        var out = [directory]
        var dir = directory
        while dir != "/", let slash = dir.lastIndex(of: "/") {
            dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
            out.append(dir)
        }
        return out
    }

    /// `name` inside `directory` (no doubled slash at the root).
    package static func child(_ name: String, of directory: String) -> String {
        (directory == "/" ? "" : directory) + "/" + name
    }
}
