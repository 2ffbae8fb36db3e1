import DatabaseRules
import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax
import Testing

/// A pair of versions of a rules file and the changes `rules diff` must report.
struct DiffCase: Sendable, CustomTestStringConvertible {
    var name: String
    var old: String
    var new: String
    /// Expected changes as `kind operation path` (`newly-allowed delete /posts/$postId`), the
    /// operation being the model's cell (read, create, update, delete, write); empty for a refactor.
    var expected: Set<String>
    /// Changes that may also be reported (the same cause seen from another cell).
    var allowedExtra: Set<String> = []
    var testDescription: String { name }
}

private func rules(_ inner: String) -> String { "{\"rules\": {\(inner)}}" }

@Suite struct AccessDiffTests {
    static let base = rules(#"""
        "users": {"$uid": {".read": "auth.uid === $uid", ".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
        "posts": {"$postId": {".read": true,
            ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid",
            ".validate": "newData.hasChildren(['uid', 'text'])"}}
        """#)

    static let cases: [DiffCase] = [
        .init(name: "a pure reformatting", old: base, new: base.replacingOccurrences(of: ", ", with: ",\n      ").replacingOccurrences(of: "{", with: "{ "), expected: []),
        .init(name: "reordered keys", old: base, new: rules(#"""
            "posts": {"$postId": {".validate": "newData.hasChildren(['uid', 'text'])",
                ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid",
                ".read": true}},
            "users": {"$uid": {".validate": "newData.hasChildren(['name'])", ".write": "auth.uid === $uid", ".read": "auth.uid === $uid"}}
            """#), expected: []),
        .init(name: "a renamed $wildcard", old: base, new: base.replacingOccurrences(of: "$uid", with: "$userId").replacingOccurrences(of: "$postId", with: "$id"), expected: []),
        .init(name: "a condition moved between equivalent places", old: base, new: rules(#"""
            "users": {"$uid": {".read": "$uid === auth.uid", ".write": "$uid === auth.uid", ".validate": "newData.hasChildren(['name'])"}},
            "posts": {"$postId": {".read": true,
                ".write": "auth != null && newData.child('uid').val() === auth.uid && (!data.exists() || data.child('uid').val() === auth.uid)",
                ".validate": "newData.hasChildren(['uid', 'text'])"}}
            """#), expected: []),
        .init(name: "loosening: any signed-in user writes any post", old: base, new: base.replacingOccurrences(
            of: #"auth != null && (!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid"#, with: "auth != null"),
            expected: ["newly-allowed update /posts/$postId", "newly-allowed delete /posts/$postId"],
            allowedExtra: ["newly-allowed create /posts/$postId"]),
        .init(name: "tightening: posts readable only when signed in", old: base, new: base.replacingOccurrences(of: #"".read": true"#, with: #"".read": "auth != null""#),
            expected: ["newly-denied read /posts/$postId"]),
        .init(name: "an accidental opening through a moved rule", old: base, new: rules(#"""
            "users": {".read": "auth != null", "$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
            "posts": {"$postId": {".read": true,
                ".write": "auth != null && (!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid",
                ".validate": "newData.hasChildren(['uid', 'text'])"}}
            """#), expected: ["newly-allowed read /users/$uid"], allowedExtra: ["newly-allowed read /users"]),
        .init(name: "a new collection", old: base, new: String(base.dropLast(2)) + #", "comments": {"$commentId": {".read": true, ".write": "auth != null && !data.exists()", ".validate": "newData.isString()"}}}}"#,
            expected: ["newly-allowed read /comments/$commentId", "newly-allowed create /comments/$commentId"],
            allowedExtra: ["newly-allowed read /comments", "newly-allowed write /comments", "newly-allowed update /comments/$commentId"]),
    ]

    static func load(_ text: String) throws -> (rules: Ruleset, tree: RuleNode) {
        let file = SourceFile(path: "t.json", text: text)
        let result = RulesCompiler.compile(file)
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        return (try Ruleset(file: file), try #require(result.tree))
    }

    @Test(arguments: cases)
    func reportsTheExpectedChangesEachProvenOnBothVersions(_ c: DiffCase) throws {
        let old = try Self.load(c.old)
        let new = try Self.load(c.new)
        let diff = AccessDiff.compare(old: old, new: new)
        let reported = Set(diff.changes.map { "\($0.kind.rawValue) \($0.operation.rawValue) \($0.path)" })
        #expect(c.expected.isSubset(of: reported), "missing \(c.expected.subtracting(reported)); reported \(reported)")
        #expect(reported.subtracting(c.expected).isSubset(of: c.allowedExtra), "not expected: \(reported.subtracting(c.expected).subtracting(c.allowedExtra))")
        #expect(diff.unchanged == c.expected.isEmpty)
        for change in diff.changes {
            // The witness, run from scratch: its last step gets `new` on the new version and the
            // other verdict (or an earlier step fails) on the old.
            let onNew = WitnessSearch.run(change.witness, rules: new.rules)
            let onOld = WitnessSearch.run(change.witness, rules: old.rules)
            if change.kind == .newlyAllowed {
                #expect(onNew.confirmed, "\(change.witness.lines)")
                #expect(!onOld.confirmed, "\(change.witness.lines)")
            } else {
                #expect(!onNew.confirmed, "\(change.witness.lines)")
                #expect(onOld.confirmed, "\(change.witness.lines)")
            }
        }
    }

    /// `--witness-spec`: each change as a spec whose steps expect what the new version gives.
    @Test func aChangeAsASpecExpectsTheNewVerdicts() throws {
        let c = Self.cases[4]
        let diff = AccessDiff.compare(old: try Self.load(c.old), new: try Self.load(c.new))
        let change = try #require(diff.changes.first { $0.kind == .newlyAllowed })
        let spec = DiffSpec.render(change, rulesPath: "new.rules.json")
        #expect(spec.hasPrefix("# newly-allowed: "))
        #expect(spec.contains("rules: \"new.rules.json\"\n"))
        #expect(spec.hasSuffix("expect: allow\n"))
    }

    @Test func jsonFollowsTheContract() throws {
        let c = Self.cases[4]
        let diff = AccessDiff.compare(old: try Self.load(c.old), new: try Self.load(c.new))
        let text = AccessDiffReport(diff: diff, oldName: "old.json", newName: "new.json").json().rendered()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["unchanged"] as? Bool == false)
        let changes = try #require(root["changes"] as? [[String: Any]])
        #expect(!changes.isEmpty)
        for ch in changes {
            #expect(["newly-allowed", "newly-denied"].contains(ch["change"] as? String ?? ""))
            #expect(["read", "set", "update", "delete"].contains(ch["operation"] as? String ?? ""))
            #expect((ch["path"] as? String)?.hasPrefix("/") == true)
            #expect(ch["principal"] is String)
            let w = try #require(ch["witness"] as? [String: Any])
            #expect(w["auth"] != nil && w["data"] != nil && w["now"] is Int)
            #expect(w["steps"] is [Any])
            #expect(["allow", "deny"].contains(w["old"] as? String ?? "") && ["allow", "deny"].contains(w["new"] as? String ?? ""))
        }
    }
}

