import Foundation

/// Notices saves by polling: the modification time and size of every watched file (files given
/// by path, and the files under given directories, skipping dot-directories and node_modules).
struct FileWatcher {
    /// What is watched.
    let paths: [String]

    private struct Stamp: Equatable {
        var modified: Date?
        var size: Int?
    }

    private var stamps: [String: Stamp] = [:]

    init(paths: [String]) {
        var seen = Set<String>()
        self.paths = paths.filter { seen.insert($0).inserted }
        stamps = scan()
    }

    /// The number of files watched now.
    var fileCount: Int { stamps.count }

    /// Waits until a watched file changes, appears or disappears; returns the changed paths, or
    /// nil when `stop` said to stop first.
    mutating func waitForChange(every interval: TimeInterval = 0.25, stop: () -> Bool) -> [String]? {
        while !stop() {
            Thread.sleep(forTimeInterval: interval)
            let now = scan()
            if now != stamps {
                var changed = Set(now.keys).symmetricDifference(stamps.keys)
                for (path, stamp) in now where stamps[path] != nil && stamps[path] != stamp { changed.insert(path) }
                // Let the editor finish writing (a save may be several writes) before re-running.
                Thread.sleep(forTimeInterval: 0.05)
                stamps = scan()
                return changed.sorted()
            }
        }
        return nil
    }

    private func scan() -> [String: Stamp] {
        var out: [String: Stamp] = [:]
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                out[path] = Stamp(modified: nil, size: nil)
                continue
            }
            if !isDirectory.boolValue {
                out[path] = Self.stamp(path)
                continue
            }
            guard let walker = fm.enumerator(atPath: path) else { continue }
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") || name == "node_modules" {
                    walker.skipDescendants()
                    continue
                }
                let full = (path as NSString).appendingPathComponent(relative)
                out[full] = Self.stamp(full)
            }
        }
        return out
    }

    private static func stamp(_ path: String) -> Stamp {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return Stamp(modified: attributes?[.modificationDate] as? Date, size: (attributes?[.size] as? NSNumber)?.intValue)
    }
}
