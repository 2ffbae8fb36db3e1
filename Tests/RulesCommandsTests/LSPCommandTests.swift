import Foundation
import RulesLanguageServer
import RulesLint
import RulesSyntax
import RulesTestSupport
import Testing

@testable import RulesCommands

/// `rules lsp`'s diagnostics are `rules check`'s, with the witnesses and the project's lint levels.
@Suite struct LSPCommandTests {
    static let rules = """
        {
          "rules": {
            "users": { "$uid": { ".write": "auth.uid == $uid" } },
            "admin": { ".read": "root.child('users').child(auth.uid).child('admin').val() == true" }
          }
        }

        """

    @Test func aSecurityLintCarriesItsWitnessAsNotes() throws {
        let found = LSPCommand.model(readConfiguration: false)(SourceFile(path: "database.rules.json", text: Self.rules))
        var lints = LintConfiguration.default
        lints.solver = AccessModel.SolverBudget(milliseconds: CheckCommand.solverMilliseconds, seconds: CheckCommand.solverSeconds, threatsOnly: true)
        let check = CheckCommand.check(bytes: Array(Self.rules.utf8), path: "database.rules.json", lints: lints)
        #expect(found.map(\.diagnostic) == check.diagnostics)
        let privilege = try #require(found.first { $0.diagnostic.code == "self-granted-privilege" })
        #expect(privilege.notes.first == "witness (confirmed): as a signed-in stranger (uid mallory), starting from an empty database:")
        #expect(privilege.notes.count == 4)
        #expect(privilege.notes[2].hasPrefix("2. set /users/mallory/admin = true → allowed by the engine"))
    }

    @Test func theNearestConfigurationSetsTheLintLevels() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data("lints:\n  unvalidated-write: off\n  self-granted-privilege: error\n".utf8)
            .write(to: URL(fileURLWithPath: dir.path + "/.database-rules.yaml"))
        try FileManager.default.createDirectory(atPath: dir.path + "/firebase", withIntermediateDirectories: true)
        let file = SourceFile(path: dir.path + "/firebase/database.rules.json", text: Self.rules)
        let found = LSPCommand.model(readConfiguration: true)(file)
        #expect(!found.contains { $0.diagnostic.code == "unvalidated-write" })
        #expect(found.first { $0.diagnostic.code == "self-granted-privilege" }?.diagnostic.severity == .error)
        let unconfigured = LSPCommand.model(readConfiguration: false)(file)
        #expect(unconfigured.contains { $0.diagnostic.code == "unvalidated-write" })
    }

    /// The compiler's diagnostics and the static lints arrive at once, without the model's witnesses.
    @Test func theFirstFindingsNeedNoModel() throws {
        let first = LSPCommand.checker(readConfiguration: false).check(SourceFile(path: "database.rules.json", text: Self.rules))
        #expect(!first.isEmpty)
        #expect(first.allSatisfy { $0.notes.isEmpty })
        #expect(LSPCommand.checker(readConfiguration: false).model != nil)
    }
}
