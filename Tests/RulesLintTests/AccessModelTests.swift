import DatabaseRules
import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax
import RulesTestSupport
import Testing

/// Wraps the inside of the `rules` object.
private func rules(_ inner: String) -> String { "{\"rules\": {\(inner)}}" }

/// A hole a rules file has, and the finding `rules check` must report for it.
struct MissCase: Sendable, CustomTestStringConvertible {
    var name: String
    var code: LintCode
    var text: String
    /// A piece of the path or message the finding must name.
    var mentions: String
    var testDescription: String { name }
}

/// The threat classes on the access model: each reproducer of a real hole is reported with a
/// witness the engine allows, and the noise cases are not reported.
@Suite struct AccessModelTests {
    static func findings(_ text: String) -> (findings: [LintFinding], rules: Ruleset) {
        let file = SourceFile(path: "t.json", text: text)
        let result = RulesCompiler.compile(file)
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        return (LintRun.findings(result, file: file), try! Ruleset(file: file))
    }

    static let misses: [MissCase] = [
        .init(name: "admin role through an || in the profile rule", code: .selfGrantedPrivilege, text: rules(#"""
            "users": {"$uid": {".write": "auth.uid === $uid || root.child('users').child(auth.uid).child('role').val() === 'admin'",
                               ".validate": "newData.hasChildren(['name'])"}},
            "grades": {".write": "root.child('users').child(auth.uid).child('role').val() === 'admin'",
                       ".validate": "newData.hasChildren(['score'])"}
            """#), mentions: "/users/{auth.uid}/role"),
        .init(name: "admin role beside a custom claim", code: .selfGrantedPrivilege, text: rules(#"""
            "users": {"$uid": {".write": "auth != null && (auth.uid === $uid || auth.token.admin === true)",
                               ".validate": "newData.hasChildren(['name'])"}},
            "grades": {"$gradeId": {".write": "root.child('users/' + auth.uid + '/role').val() === 'admin'",
                       ".validate": "newData.hasChildren(['score'])"}}
            """#), mentions: "role"),
        .init(name: "self-chosen teacher role", code: .selfGrantedPrivilege, text: rules(#"""
            "profiles": {"$uid": {".write": "auth.uid == $uid", "role": {".validate": "newData.isString()"}}},
            "courses": {"$courseId": {".write": "root.child('profiles').child(auth.uid).child('role').val() == 'teacher'"}}
            """#), mentions: "teacher"),
        .init(name: "self-declared membership", code: .selfGrantedPrivilege, text: rules(#"""
            "rooms": {"$roomId": {
                "members": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.isBoolean()"}},
                "messages": {".read": "data.parent().child('members').child(auth.uid).exists()",
                             "$msgId": {".write": "root.child('rooms/' + $roomId + '/members/' + auth.uid).exists()",
                                        ".validate": "newData.hasChildren(['text'])"}}}}
            """#), mentions: "members"),
        .init(name: "event taken over by naming oneself organizer", code: .ownershipTakeover, text: rules(#"""
            "events": {"$eventId": {
                ".write": "!data.exists() || data.child('organizerId').val() === auth.uid || newData.child('organizerId').val() === auth.uid",
                ".validate": "newData.hasChildren(['organizerId', 'title'])"}}
            """#), mentions: "/events/$eventId"),
        .init(name: "conversation rewritten by a stranger who names himself", code: .ownershipTakeover, text: rules(#"""
            "threads": {"$threadId": {
                ".read": "data.child('userA').val() == auth.uid || data.child('userB').val() == auth.uid",
                ".write": "auth != null && (newData.child('userA').val() == auth.uid || newData.child('userB').val() == auth.uid) && root.child('users').child(auth.uid).exists()",
                ".validate": "newData.hasChildren(['userA', 'userB'])"}},
            "users": {"$uid": {".write": "auth.uid == $uid"}}
            """#), mentions: "/threads/$threadId"),
        .init(name: "any signed-in user overwrites or deletes messages", code: .ownershipTakeover, text: rules(#"""
            "messages": {"$id": {".write": "auth != null", ".validate": "newData.hasChildren(['uid','text'])"}}
            """#), mentions: "/messages/$id"),
        .init(name: "a length bound one branch skips", code: .skippedCheck, text: rules(#"""
            "notes": {"$uid": {".write": "auth.uid == $uid", ".validate": "newData.isString() || newData.val().length <= 2800000"}}
            """#), mentions: "length"),
        .init(name: "a collection any signed-in user replaces", code: .collectionWipe, text: rules(#"""
            "posts": {".write": "auth != null", "$postId": {".validate": "newData.hasChildren(['uid', 'text'])"}}
            """#), mentions: "/posts"),
    ]

    @Test(arguments: misses)
    func missIsReportedWithAWitnessTheEngineAllows(_ c: MissCase) throws {
        let r = Self.findings(c.text)
        let f = try #require(r.findings.first { $0.code == c.code }, "\(r.findings.map { "\($0.code): \($0.diagnostic.message)" })")
        #expect(f.diagnostic.message.contains(c.mentions) || f.anchor.contains(c.mentions), "\(f.diagnostic.message)")
        let w = try #require(f.witness)
        #expect(w.confirmed)
        let rerun = WitnessSearch.run(w, rules: r.rules)
        #expect(rerun.confirmed)
        #expect(rerun.steps.last?.allowed == true)
        // An escalation does not start with the attacker holding what it is about.
        if c.code == .selfGrantedPrivilege {
            #expect(w.identity.role == "stranger")
            #expect(w.steps.first?.expectAllowed == false)
        }
    }

    @Test func escalationIsReportedAtTheRuleThatLetsTheGrantThroughWithTheTrustingRulesRelated() throws {
        let r = Self.findings(Self.misses[0].text)
        let f = try #require(r.findings.first { $0.code == .selfGrantedPrivilege })
        #expect(f.anchor.hasPrefix("/users/$uid .write"))
        #expect(f.related.contains { $0.message.contains("the .write at /grades trusts") })
        #expect(r.findings.filter { $0.code == .selfGrantedPrivilege }.count == 1)
    }

    /// An owner check on the new value only, in `.validate`: replacing someone's record with one
    /// of your own is a takeover.
    @Test func aNewOwnerCheckInValidateIsATakeover() throws {
        let r = Self.findings(rules(#""posts": {"$postId": {".write": "auth != null", ".validate": "newData.child('owner').val() === auth.uid && newData.hasChildren(['text'])"}}"#))
        #expect(r.findings.contains { $0.code == .ownershipTakeover }, "\(r.findings.map(\.code))")
    }

    @Test func validateOnlyAuthorizationIsTheDeleteThroughAWeakWrite() throws {
        let r = Self.findings(rules(#""posts": {"$postId": {".write": "auth != null", ".validate": "(!data.exists() || data.child('owner').val() === auth.uid) && newData.child('owner').val() === auth.uid && newData.hasChildren(['text'])"}}"#))
        let f = try #require(r.findings.first { $0.code == .authorizationInValidate }, "\(r.findings.map(\.code))")
        #expect(f.witness?.steps.last?.operation == .delete)
        #expect(f.related.contains { $0.message.contains(".validate at /posts/$postId") })
        #expect(!r.findings.contains { $0.code == .ownershipTakeover })
    }

    // MARK: - Noise

    @Test func aMissingChildIsNotAnImpossibleCondition() {
        let r = Self.findings(rules(#"""
            "messages": {"$id": {".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid)",
                ".validate": "newData.child('uid').val() === auth.uid && ((newData.hasChildren(['text']) && !newData.hasChildren(['image'])) || (newData.hasChildren(['image']) && !newData.hasChildren(['text'])))"}}
            """#))
        #expect(!r.findings.contains { $0.code == .impossibleCondition }, "\(r.findings.map(\.diagnostic))")
    }

    @Test func anAdministratorsOnlyLocationIsNotAnyonesWhenTheRoleCannotBeSelfGranted() {
        let r = Self.findings(rules(#"""
            "admins": {"$uid": {".write": false}},
            "config": {".write": "root.child('admins').child(auth.uid).exists()"}
            """#))
        #expect(!r.findings.contains { $0.code == .unvalidatedWrite }, "\(r.findings.map(\.diagnostic))")
        #expect(!r.findings.contains { $0.code == .selfGrantedPrivilege })
    }

    @Test func aSelfGrantableAdministratorIsTheEscalationNotAnUnvalidatedWrite() throws {
        let r = Self.findings(rules(#"""
            "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
            "config": {".write": "root.child('users').child(auth.uid).child('isAdmin').val() === true"}
            """#))
        let f = try #require(r.findings.first { $0.code == .selfGrantedPrivilege }, "\(r.findings.map(\.diagnostic))")
        #expect(f.witness?.identity.role == "stranger")
        for u in r.findings where u.code == .unvalidatedWrite {
            #expect(u.witness?.data.map { !$0.json.contains("isAdmin") } ?? true, "\(u.diagnostic.message)")
        }
    }

    @Test func ownRecordsOnlyAreNotATakeover() {
        let r = Self.findings(rules(#"""
            "users": {"$uid": {".read": "auth.uid === $uid", ".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
            "posts": {"$postId": {".read": true, ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid",
                ".validate": "newData.hasChildren(['uid', 'text'])"}}
            """#))
        for code in [LintCode.ownershipTakeover, .collectionWipe, .selfGrantedPrivilege, .authorizationInValidate, .perUserDataReadable] {
            #expect(!r.findings.contains { $0.code == code }, "\(code): \(r.findings.map(\.diagnostic))")
        }
    }

    @Test func siblingsAllowedByOneAncestorAreOneFinding() throws {
        let r = Self.findings(rules(#"""
            "shop": {".write": "auth != null",
                "a": {".write": "auth.uid === 'x'"}, "b": {".write": "auth.uid === 'y'"}, "c": {".write": "auth.uid === 'z'"}}
            """#))
        let unvalidated = r.findings.filter { $0.code == .unvalidatedWrite }
        #expect(unvalidated.count == 1, "\(unvalidated.map(\.diagnostic))")
    }

    // MARK: - The model

    /// `Ruleset.lintFindings` (from this module) reports what `rules check` does.
    @Test func rulesetLintFindingsAreTheCheckersFindings() throws {
        let text = Self.misses[0].text
        let ruleset = try Ruleset(source: text, path: "t.json")
        let viaRuleset = ruleset.lintFindings()
        let viaCheck = Self.findings(text).findings
        #expect(viaRuleset.map(\.diagnostic) == viaCheck.map(\.diagnostic))
        #expect(viaRuleset.contains { $0.code == .selfGrantedPrivilege })
        #expect(ruleset.lintFindings(configuration: LintConfiguration(enabled: [])).isEmpty)
    }

    @Test func cellsOfTheGuideShape() throws {
        let text = rules(#"""
            "users": {"$uid": {".read": "auth != null", ".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
            "admin": {".read": "auth.token.admin === true"}
            """#)
        let file = SourceFile(path: "t.json", text: text)
        let ruleset = try Ruleset(file: file)
        let tree = try #require(RulesCompiler.compile(file).tree)
        let model = AccessModel.build(rules: ruleset, tree: tree)
        #expect(model.cell("/users/$uid", .owner, .update)?.verdict.isAllowed == true)
        #expect(model.cell("/users/$uid", .stranger, .update)?.verdict.isAllowed == false)
        #expect(model.cell("/users/$uid", .stranger, .read)?.verdict.isAllowed == true)
        #expect(model.cell("/users/$uid", .anonymous, .read)?.verdict.isAllowed == false)
        let claim = try #require(model.principals.first { $0.name == "claim:admin" })
        #expect(model.cell("/admin", claim, .read)?.verdict.isAllowed == true)
        #expect(model.cell("/admin", .stranger, .read)?.verdict.isAllowed == false)
    }

    /// Every rules file in the repository: every "allowed" cell of its model has a witness the
    /// engine allows when run again from scratch.
    @Test(arguments: AccessModelTests.repositoryFiles())
    func everyAllowedCellHasAWitnessTheEngineAllows(_ path: String) throws {
        let file = SourceFile(path: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let result = RulesCompiler.compile(file)
        guard let tree = result.tree, !result.diagnostics.containsErrors else { return }
        let ruleset = try Ruleset(file: file)
        let model = AccessModel.build(rules: ruleset, tree: tree)
        for cell in model.cells {
            guard let w = cell.verdict.witness else { continue }
            let rerun = WitnessSearch.run(w, rules: ruleset)
            #expect(rerun.confirmed, "\(cell.location.path) \(cell.principal.name) \(cell.operation): \(w.lines)")
        }
        #expect(model.cells.count > 0)
    }

    static func repositoryFiles() -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for base in [TestPaths.examples, TestPaths.corpus, TestPaths.data.appendingPathComponent("judged")] {
            guard let e = fm.enumerator(atPath: base.path) else { continue }
            while let p = e.nextObject() as? String {
                if p.hasSuffix(".json"), p.contains("rules") { out.append(base.appendingPathComponent(p).path) }
            }
        }
        return out.sorted()
    }
}
