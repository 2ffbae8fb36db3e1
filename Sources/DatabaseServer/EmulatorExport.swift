import DatabaseRules
import Foundation

/// The Firebase emulator's export layout: `DIR/database_export/<namespace>.json`, one file per
/// namespace, each the namespace's data in the export format (priorities kept).
public enum EmulatorExport {
    /// The folder inside `directory` that holds the namespace files.
    static func folder(_ directory: String) -> URL {
        URL(fileURLWithPath: directory).appendingPathComponent("database_export")
    }

    /// Reads every namespace file of an export. Throws a message naming the file that cannot be
    /// used.
    public static func read(_ directory: String) throws -> [(namespace: String, database: Database)] {
        let dir = folder(directory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else {
            throw ExportError("\(dir.path): no such directory (an emulator export has DIR/database_export/<namespace>.json)")
        }
        var out: [(namespace: String, database: Database)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = dir.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { throw ExportError("\(path): cannot read the file") }
            do {
                let input = try DataInputReader.read(bytes: [UInt8](data))
                out.append((String(name.dropLast(5)), Database(root: input.resolved(now: Date().millisecondsSince1970, existing: nil))))
            } catch {
                throw ExportError("\(path): \(error.message)")
            }
        }
        return out
    }

    /// Writes each namespace to `directory/database_export/<namespace>.json` (written next to
    /// its final name and renamed, so a file is never half written).
    public static func write(_ namespaces: [(name: String, database: Database)], to directory: String) throws {
        let dir = folder(directory)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, database) in namespaces {
            let path = dir.appendingPathComponent(name + ".json").path
            let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
            try Data(database.exportJSON(includePriority: true).utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                try? FileManager.default.removeItem(atPath: temporary)
                throw ExportError("\(path): cannot write the file")
            }
        }
    }

    /// Why an export cannot be read or written.
    public struct ExportError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
