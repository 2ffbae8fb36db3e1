import DatabaseRules
import RulesCompiler
import RulesLint
import RulesSyntax
import Testing

/// One security lint: a vulnerable file, the lint it must trigger, and the file after the fix
/// the lint's message documents.
struct WitnessCase: Sendable, CustomTestStringConvertible {
    var code: LintCode
    var vulnerable: String
    var fixed: String
    var testDescription: String { code.rawValue }
}

/// Wraps the inside of the `rules` object.
private func rules(_ inner: String) -> String { "{\"rules\": {\(inner)}}" }

/// For each security lint: the witness found for the vulnerable file is allowed by the engine,
/// and the same witness is denied once the rules are fixed.
@Suite struct WitnessTests {
    static let cases: [WitnessCase] = [
        .init(code: .publicRead,
            vulnerable: rules(#""orders": {".read": true}"#),
            fixed: rules(#""orders": {".read": "auth != null"}"#)),
        .init(code: .publicWrite,
            vulnerable: rules(#""orders": {".write": true, ".validate": "newData.hasChildren(['item'])"}"#),
            fixed: rules(#""orders": {".write": "auth != null", ".validate": "newData.hasChildren(['item'])"}"#)),
        .init(code: .shadowedRule,
            vulnerable: rules(#""shop": {".read": true, "orders": {".read": "auth != null"}}"#),
            fixed: rules(#""shop": {"catalog": {".read": true}, "orders": {".read": "auth != null"}}"#)),
        .init(code: .unvalidatedWrite,
            vulnerable: rules(#""profiles": {"$uid": {".write": "auth.uid === $uid"}}"#),
            fixed: rules(#""profiles": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])", "name": {".validate": "newData.isString()"}, "$other": {".validate": false}}}"#)),
        .init(code: .deleteGuardInValidate,
            vulnerable: rules(#""posts": {"$id": {".write": "auth != null", ".validate": "newData.exists() && newData.isString()"}}"#),
            fixed: rules(#""posts": {"$id": {".write": "auth != null && newData.exists()", ".validate": "newData.isString()"}}"#)),
        .init(code: .authorizationInValidate,
            vulnerable: rules(#""posts": {"$postId": {".write": "auth.uid != null", ".validate": "(!data.exists() || data.child('owner').val() === auth.uid) && newData.child('owner').val() === auth.uid"}}"#),
            fixed: rules(#""posts": {"$postId": {".write": "auth != null && (!data.exists() || data.child('owner').val() === auth.uid)", ".validate": "newData.child('owner').val() === auth.uid"}}"#)),
        .init(code: .weakerAncestorGrant,
            vulnerable: rules(#""chats": {".read": "auth.uid != null", "$chat": {"messages": {".read": "root.child('members').child($chat).child(auth.uid).exists()"}}}"#),
            fixed: rules(#""chats": {"$chat": {"messages": {".read": "root.child('members').child($chat).child(auth.uid).exists()"}}}"#)),
        .init(code: .selfGrantedPrivilege,
            vulnerable: rules(#"""
                "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
                "grades": {".write": "root.child('users').child(auth.uid).child('role').val() === 'teacher'", ".validate": "newData.hasChildren()"}
                """#),
            fixed: rules(#"""
                "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
                "roles": {"$uid": {".write": "root.child('roles').child(auth.uid).val() === 'admin'", ".validate": "newData.isString()"}},
                "grades": {".write": "root.child('roles').child(auth.uid).val() === 'teacher'", ".validate": "newData.hasChildren()"}
                """#)),
        .init(code: .ownershipTakeover,
            vulnerable: rules(#""notes": {"$noteId": {".write": "newData.child('uid').val() === auth.uid", ".validate": "newData.hasChildren(['uid', 'text'])"}}"#),
            fixed: rules(#""notes": {"$noteId": {".write": "(!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid", ".validate": "newData.hasChildren(['uid', 'text'])"}}"#)),
        .init(code: .recordCheckAtCollection,
            vulnerable: rules(#""submissions": {".write": "newData.child('student_id').val() === auth.uid", "$id": {"student_id": {".validate": "newData.isString()"}}}"#),
            fixed: rules(#""submissions": {"$id": {".write": "!data.exists() && newData.child('student_id').val() === auth.uid", "student_id": {".validate": "newData.isString()"}}}"#)),
    ]

    static func findings(_ text: String) -> (findings: [LintFinding], rules: Ruleset) {
        let file = SourceFile(path: "t.json", text: text)
        let result = RulesCompiler.compile(file)
        let ruleset = try! Ruleset(file: file)
        return (LintRun.findings(result, file: file), ruleset)
    }

    @Test(arguments: cases)
    func witnessIsAllowedThenDeniedAfterTheFix(_ c: WitnessCase) throws {
        let vulnerable = Self.findings(c.vulnerable)
        let finding = try #require(vulnerable.findings.first { $0.code == c.code }, "\(vulnerable.findings.map(\.diagnostic))")
        let witness = try #require(finding.witness, "no witness among \(finding.witnessCandidates.count) candidates")
        #expect(witness.confirmed)
        #expect(witness.steps.last?.allowed == true)
        // Run again from scratch: the engine allows it.
        #expect(WitnessSearch.run(witness, rules: vulnerable.rules).confirmed)
        // After the fix, the same operations: the last one is denied (or an earlier one is).
        let fixed = Self.findings(c.fixed)
        #expect(!fixed.findings.contains { $0.code == c.code }, "\(fixed.findings.map(\.diagnostic))")
        let rerun = WitnessSearch.run(witness, rules: fixed.rules)
        #expect(!rerun.confirmed)
        #expect(rerun.steps.contains { $0.allowed == false && $0.expectAllowed })
    }

    /// The `.validate` keeps the old owner, so a stranger cannot take a note over by writing it;
    /// but signed out, `newData.child('uid').val() === auth.uid` is `null === null` on a delete:
    /// anyone deletes every note. The static check (the new owner only) could not see either.
    @Test func theModelFindsTheSignedOutDeleteAKeptOwnerLeavesOpen() throws {
        let text = rules(#""notes": {"$noteId": {".write": "newData.child('uid').val() === auth.uid", ".validate": "!data.exists() || data.child('uid').val() === newData.child('uid').val()"}}"#)
        let r = Self.findings(text)
        let f = try #require(r.findings.first { $0.code == .ownershipTakeover })
        let w = try #require(f.witness)
        #expect(w.identity.role == "anonymous")
        #expect(w.steps.last?.operation == .delete)
        #expect(WitnessSearch.run(w, rules: r.rules).confirmed)
    }

    /// A witness renders as a spec that fails until the rules are fixed.
    @Test func specFileExpectsTheLastStepDenied() throws {
        let c = try #require(Self.cases.first { $0.code == .selfGrantedPrivilege })
        let finding = try #require(Self.findings(c.vulnerable).findings.first { $0.code == c.code })
        let spec = try #require(WitnessSpec.render(finding, rulesPath: "t.json"))
        #expect(spec.contains("auth:\n  caller: {uid: \"mallory\"}"))
        #expect(spec.hasSuffix("expect: deny\n"))
    }
}
