import Foundation

/// Expands command-line paths: files as given, directories searched recursively for rules files.
public enum RulesFileFinder {
    /// Files named `*.rules.json`, `*rules.json` or `database.rules.json` (and `.jsonc`) inside
    /// directories, sorted; plain files pass through.
    public static func expand(_ paths: [String]) -> [String] {
        var out: [String] = []
        for p in paths {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: p, isDirectory: &isDir), isDir.boolValue {
                let base = URL(fileURLWithPath: p)
                let found = (FileManager.default.enumerator(atPath: p)?.allObjects as? [String] ?? [])
                    .filter { isRulesFile(($0 as NSString).lastPathComponent) }
                    .sorted()
                out += found.map { base.appendingPathComponent($0).relativePath(from: p) }
            } else {
                out.append(p)
            }
        }
        return out
    }

    /// True for names that look like rules files.
    public static func isRulesFile(_ name: String) -> Bool {
        name.hasSuffix("rules.json") || name.hasSuffix("rules.jsonc") || name.hasSuffix("-rules.json")
    }
}

extension URL {
    fileprivate func relativePath(from base: String) -> String {
        let b = base.hasSuffix("/") ? String(base.dropLast()) : base
        let full = path
        let absBase = URL(fileURLWithPath: b).path
        if full.hasPrefix(absBase + "/") { return b + "/" + full.dropFirst(absBase.count + 1) }
        return full
    }
}
