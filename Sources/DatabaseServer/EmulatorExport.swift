import DatabaseRules
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Firebase emulator's export layout: `DIR/database_export/<namespace>.json`, one file per
/// namespace, each the namespace's data in the export format (priorities kept).
///
/// A file's name is made only from a checked ``NamespaceName`` (lowercase letters, digits and
/// hyphens), so it is always one file directly inside the export folder; reading refuses a file
/// whose name is not a namespace name, and writing writes every namespace it can, reporting the
/// ones it cannot together at the end.
package enum EmulatorExport {
    /// The folder inside `directory` that holds the namespace files.
    static func folder(_ directory: String) -> URL {
        URL(fileURLWithPath: directory).appendingPathComponent("database_export")
    }

    /// Reads every namespace file of an export. Throws a message naming each file that cannot
    /// be used (a name that is not a namespace name, unreadable, or not JSON); nothing is loaded
    /// then.
    ///
    /// Each file is read in chunks of `chunkSize` bytes and its tree built as it is read
    /// (``DataStreamReader``), so the text is never held whole. `progress` hears after each chunk
    /// and once when a file is done.
    package static func read(
        _ directory: String, chunkSize: Int = DataStreamReader.defaultChunkSize, progress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws(ExportError) -> [(namespace: String, database: Database)] {
        let dir = folder(directory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else {
            throw ExportError("\(dir.path): no such directory (an emulator export has DIR/database_export/<namespace>.json)")
        }
        var out: [(namespace: String, database: Database)] = []
        var problems: [String] = []
        for file in names.sorted() where file.hasSuffix(".json") {
            let path = dir.appendingPathComponent(file).path
            let stem = String(file.dropLast(5))
            guard let name = NamespaceName(stem) else {
                problems.append(
                    "\(RequestRecord.escaped(path)): \(NamespaceName.shown(stem)) is not a namespace name (\(NamespaceName.rule)); rename the file or move it out of the folder")
                continue
            }
            do {
                let root = try readFile(path, name: file, chunkSize: chunkSize, progress: progress)
                out.append((name.text, Database(root: root)))
            } catch {
                problems.append("\(path): \(error.message)")
            }
        }
        guard problems.isEmpty else { throw ExportError(problems.joined(separator: "\n")) }
        return out
    }

    /// Reads one namespace file with ``DataStreamReader``, a chunk at a time.
    private static func readFile(_ path: String, name: String, chunkSize: Int, progress: @escaping (ImportProgress) -> Void) throws(DataError) -> DataNode? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DataError(message: "cannot read the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        let total = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        let started = ContinuousClock.now
        var report = ImportProgress(file: name, bytesRead: 0, totalBytes: total, seconds: 0)
        let now = Date().millisecondsSince1970
        var reader = DataStreamReader(now: now, chunkSize: chunkSize) { (buffer) throws(DataError) -> Int in
            while true {
                let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if n >= 0 {
                    report.bytesRead += n
                    report.seconds = ImportProgress.seconds(since: started)
                    if n > 0 { progress(report) }
                    return n
                }
                if errno != EINTR { throw DataError(message: "cannot read the file: \(String(cString: strerror(errno)))") }
            }
        }
        let root = try reader.read()
        report.seconds = ImportProgress.seconds(since: started)
        report.leaves = leafCount(root)
        progress(report)
        return root
    }

    /// The number of leaves in a tree.
    static func leafCount(_ node: DataNode?) -> Int {
        guard let node else { return 0 }
        if node.isLeaf { return 1 }
        var leaves = 0
        node.forEachChild { _, child in leaves += leafCount(child) }
        return leaves
    }

    /// Writes each namespace to `directory/database_export/<namespace>.json` (written next to
    /// its final name and renamed, so a file is never half written).
    ///
    /// Each file's path is the export folder (its symbolic links resolved) and the checked name,
    /// and is checked to be directly inside that folder before anything is written. A namespace
    /// that cannot be written (a name that is not a namespace name, a full disk) does not stop
    /// the others: every other one is written, and the failures are thrown together at the end.
    /// Returns the names written.
    @discardableResult
    package static func write(_ namespaces: [(name: String, database: Database)], to directory: String) throws(ExportError) -> [String] {
        let dir = folder(directory)
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw ExportError("\(dir.path): cannot create the export folder: \(error.localizedDescription)")
        }
        let resolved = dir.resolvingSymlinksInPath().standardizedFileURL
        var written: [String] = []
        var failures: [String] = []
        for (text, database) in namespaces {
            guard let name = NamespaceName(text) else {
                failures.append("namespace \(NamespaceName.shown(text)): not written: it is not a namespace name (\(NamespaceName.rule))")
                continue
            }
            let file = resolved.appendingPathComponent(name.text + ".json").standardizedFileURL
            guard file.deletingLastPathComponent().path == resolved.path, file.lastPathComponent == name.text + ".json" else {
                failures.append("namespace \(name): not written: its file \(file.path) would not be inside \(resolved.path)")
                continue
            }
            do {
                try writeFile(Data(database.exportJSON(includePriority: true).utf8), to: file.path)
                written.append(name.text)
            } catch {
                failures.append("namespace \(name): not written: \(error.description)")
            }
        }
        guard failures.isEmpty else {
            let summary = "\(failures.count) of \(namespaces.count) namespaces could not be exported to \(dir.path)"
                + (written.isEmpty ? "" : " (the others were: \(written.joined(separator: ", ")))")
            throw ExportError(([summary + ":"] + failures.map { "  " + $0 }).joined(separator: "\n"))
        }
        return written
    }

    /// Writes `data` to a new temporary file beside `path` (never through an existing file or
    /// link of that name), then renames it to `path`.
    private static func writeFile(_ data: Data, to path: String) throws(ExportError) {
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        _ = unlink(temporary)
        do {
            try data.write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
        } catch {
            _ = unlink(temporary)
            throw ExportError("\(path): cannot write the file: \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = unlink(temporary)
            throw ExportError("\(path): cannot write the file: \(reason)")
        }
    }

    /// Why an export cannot be read or written.
    package struct ExportError: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
