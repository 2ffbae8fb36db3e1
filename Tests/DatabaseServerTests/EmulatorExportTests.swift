import DatabaseRules
import Foundation
import RulesTestSupport
import Testing

@testable import DatabaseServer

/// Exports write each namespace as one file inside `DIR/database_export`, named only from a
/// checked namespace name; one namespace that cannot be written does not stop the others; imports
/// refuse a file whose name is not a namespace name.
@Suite struct EmulatorExportTests {
    static func database(_ json: String) throws -> Database {
        Database(root: try DataInputReader.read(json: json).resolved(now: 0, existing: nil))
    }

    @Test func namesThatAreNotNamespaceNamesAreNotWrittenAndTheOthersAre() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let target = dir.url.appendingPathComponent("out/export").path
        let namespaces: [(name: String, database: Database)] = [
            ("first", try Self.database(#"{"a": 1}"#)),
            ("../../package", try Self.database(#"{"name": "pwned"}"#)),
            ("0/x", try Self.database(#"{"b": 2}"#)),
            ("Upper", try Self.database("3")),
            ("last", try Self.database(#"{"c": 3}"#)),
        ]
        do {
            try EmulatorExport.write(namespaces, to: target)
            Issue.record("the export reported no failure")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("3 of 5 namespaces could not be exported to \(target)/database_export (the others were: first, last):"), "\(text)")
            #expect(text.contains(#"namespace "../../package": not written: it is not a namespace name"#))
            #expect(text.contains(#"namespace "0/x": not written"#))
            #expect(text.contains(#"namespace "Upper": not written"#))
        }
        let folder = URL(fileURLWithPath: target).appendingPathComponent("database_export")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["first.json", "last.json"])
        #expect(try String(contentsOf: folder.appendingPathComponent("last.json"), encoding: .utf8) == #"{"c":3}"#)
        // Nothing was written outside the export folder.
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out/package.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("package.json").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("out").path) == ["export"])
    }

    @Test func aNamespaceThatCannotBeWrittenDoesNotStopTheOthers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // A folder where one namespace's file should go: renaming onto it fails.
        let folder = dir.url.appendingPathComponent("database_export")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("blocked.json/inside"), withIntermediateDirectories: true)
        let namespaces: [(name: String, database: Database)] = [
            ("alpha", try Self.database("1")), ("blocked", try Self.database("2")), ("gamma", try Self.database("3")),
        ]
        do {
            try EmulatorExport.write(namespaces, to: dir.path)
            Issue.record("the export reported no failure")
        } catch {
            #expect(error.description.hasPrefix("1 of 3 namespaces could not be exported"), "\(error.description)")
            #expect(error.description.contains("namespace blocked: not written: "), "\(error.description)")
        }
        #expect(try String(contentsOf: folder.appendingPathComponent("alpha.json"), encoding: .utf8) == "1")
        #expect(try String(contentsOf: folder.appendingPathComponent("gamma.json"), encoding: .utf8) == "3")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["alpha.json", "blocked.json", "gamma.json"])
    }

    @Test func anExportIsWrittenThroughNoExistingLink() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let folder = dir.url.appendingPathComponent("database_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = try dir.write("victim.txt", "untouched")
        // A link where the file goes: it is replaced, not followed.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("demo.json").path, withDestinationPath: victim)
        #expect(try EmulatorExport.write([("demo", try Self.database(#"{"x": 1}"#))], to: dir.path) == ["demo"])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
        #expect(try String(contentsOf: folder.appendingPathComponent("demo.json"), encoding: .utf8) == #"{"x":1}"#)
    }

    @Test func anImportRefusesAFileWhoseNameIsNotANamespaceName() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(["database_export/good.json": #"{"a": 1}"#, "database_export/Bad Name.json": "{}", "database_export/notes.txt": "ignored"])
        do {
            _ = try EmulatorExport.read(dir.path)
            Issue.record("the import was accepted")
        } catch {
            #expect(error.description.contains(#"Bad Name.json: "Bad Name" is not a namespace name (a database name has"#), "\(error.description)")
            #expect(error.description.contains("rename the file"))
        }
        try FileManager.default.removeItem(atPath: dir.url.appendingPathComponent("database_export/Bad Name.json").path)
        let loaded = try EmulatorExport.read(dir.path)
        #expect(loaded.map(\.namespace) == ["good"])
    }

    @Test func anExportReadsBackAsItWasWritten() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let original = try Self.database(#"{"a": {".value": 1, ".priority": 2}}"#)
        let written = try EmulatorExport.write([("demo-default-rtdb", original), ("other", try Self.database("[1, 2]"))], to: dir.path)
        #expect(written == ["demo-default-rtdb", "other"])
        let read = try EmulatorExport.read(dir.path)
        #expect(read.map(\.namespace) == ["demo-default-rtdb", "other"])
        #expect(read[0].database.exportJSON(includePriority: true) == original.exportJSON(includePriority: true))
        #expect(original.exportJSON(includePriority: true).contains(#"".priority":2"#))
    }

    /// A namespace file of about `bytes` bytes: `{"items": {"i0": {...}, ...}}`.
    static func largeExport(bytes: Int) -> String {
        var text = #"{"items": {"#
        var n = 0
        while text.utf8.count < bytes {
            text += #""i\#(n)": {"title": "item \#(n)", "n": \#(n), "tags": ["a", "b"]}, "#
            n += 1
        }
        return text + #""last": true}}"#
    }

    @Test func anImportWithAMalformedFileLoadsNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let good = Self.largeExport(bytes: 200_000)
        // The same text with a colon missing far into the file.
        let bad = good.replacingOccurrences(of: #""i2000": {"#, with: #""i2000" {"#)
        let offset = try #require(Array(bad.utf8).firstRange(of: Array(#""i2000" {"#.utf8))).lowerBound + 8
        try dir.write(["database_export/alpha.json": good, "database_export/beta.json": bad, "database_export/gamma.json": #"{"g": 1}"#])
        var configuration = ServerConfiguration()
        configuration.logFormat = .quiet
        let server = try RulesServer(configuration: configuration)
        do {
            try await server.importExport(from: dir.path)
            Issue.record("the import was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains("beta.json: Invalid JSON at byte \(offset): expected ':' after the key."), "\(text)")
            #expect(!text.contains("alpha.json") && !text.contains("gamma.json"), "\(text)")
        }
        #expect(server.registry.all.allSatisfy { $0.database.root == nil })
        // The same file read in small chunks names the same offset.
        #expect(throws: EmulatorExport.ExportError.self) { try EmulatorExport.read(dir.path, chunkSize: 1_000) }
        do {
            _ = try EmulatorExport.read(dir.path, chunkSize: 1_000)
        } catch {
            #expect(error.description.contains("at byte \(offset):"), "\(error.description)")
        }
    }

    @Test func anImportReportsItsProgress() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = Self.largeExport(bytes: 50_000)
        try dir.write(["database_export/big.json": text])
        var reports: [ImportProgress] = []
        let loaded = try EmulatorExport.read(dir.path, chunkSize: 4_096) { reports.append($0) }
        let size = text.utf8.count
        #expect(reports.count == (size + 4_095) / 4_096 + 1)
        #expect(reports.allSatisfy { $0.file == "big.json" && $0.totalBytes == size })
        #expect(reports.map(\.bytesRead) == (1...(size + 4_095) / 4_096).map { min($0 * 4_096, size) } + [size])
        #expect(reports.dropLast().allSatisfy { !$0.finished })
        let items = try #require(loaded.first?.database.root?.child("items"))
        #expect(reports.last?.leaves == (items.childCount - 1) * 4 + 1)
        #expect(loaded.first?.database.exportJSON(includePriority: true) == (try Self.database(text)).exportJSON(includePriority: true))
    }
}
