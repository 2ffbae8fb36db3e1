import Foundation
import RulesTestSupport
import Testing

@testable import RulesCommands

/// What `firebase.json` says about the database rules: a missing file is told apart from one that
/// names no rules, so that `rules check` can say which it is.
@Suite struct FirebaseJSONTests {
    @Test func aMissingFileIsToldApartFromOneWithoutDatabaseRules() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(FirebaseJSON.rulesFile(in: dir.path) == .missing)
        try dir.write("firebase.json", #"{"hosting": {"public": "public"}}"#)
        #expect(FirebaseJSON.rulesFile(in: dir.path) == .absent)
        try dir.write("firebase.json", #"{"database": []}"#)
        #expect(FirebaseJSON.rulesFile(in: dir.path) == .absent)
        try dir.write("firebase.json", #"{"database": {"rules": "db.rules.json"}}"#)
        #expect(FirebaseJSON.rulesFile(in: dir.path) == .found((dir.path as NSString).appendingPathComponent("db.rules.json")))
        try dir.write("firebase.json", "[]")
        #expect(FirebaseJSON.rulesFile(in: dir.path) == .invalid("firebase.json is not a JSON object"))
    }
}
