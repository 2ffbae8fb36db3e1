import Foundation
import RulesTestSupport
import Testing

/// `rules check --witness-spec DIR`: each witness becomes a `rules test` spec that fails on the
/// vulnerable rules and passes once they are fixed as the finding says; the text, JSON and SARIF
/// reports carry the witness.
@Suite struct WitnessSpecCommandTests {
    static let vulnerable = #"""
        {"rules": {
          "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
          "grades": {".write": "root.child('users').child(auth.uid).child('role').val() === 'teacher'", ".validate": "newData.hasChildren(['score'])"}
        }}
        """#
    static let fixed = #"""
        {"rules": {
          "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
          "roles": {"$uid": {".write": "root.child('roles').child(auth.uid).val() === 'admin'", ".validate": "newData.isString()"}},
          "grades": {".write": "root.child('roles').child(auth.uid).val() === 'teacher'", ".validate": "newData.hasChildren(['score'])"}
        }}
        """#

    @Test(RulesBinary.required)
    func specFailsUntilTheRulesAreFixed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let rules = try dir.write("app/db.rules.json", Self.vulnerable)
        let specs = dir.file("witnesses").path
        let check = try RulesBinary.run(["check", rules, "--witness-spec", specs, "--color", "never"])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("[self-granted-privilege]"))
        #expect(check.output.contains("  witness (confirmed): as a signed-in stranger (uid mallory), starting from an empty database:"))
        #expect(check.output.contains("3. set /grades = {\"score\":\"x\"} → allowed by the engine"))
        let written = try FileManager.default.contentsOfDirectory(atPath: specs)
        #expect(written == ["db.rules.json.self-granted-privilege.1.test.yaml"])
        let failing = try RulesBinary.run(["test", specs])
        #expect(failing.status == 1, "\(failing.output)")
        _ = try dir.write("app/db.rules.json", Self.fixed)
        let passing = try RulesBinary.run(["test", specs])
        #expect(passing.status == 0, "\(passing.output)")
    }

    @Test(RulesBinary.required)
    func jsonAndSarifCarryTheWitness() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let rules = try dir.write("db.rules.json", Self.vulnerable)
        let json = try RulesBinary.run(["check", rules, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let diagnostic = try #require((object["diagnostics"] as? [[String: Any]])?.first)
        let witness = try #require(diagnostic["witness"] as? [String: Any])
        #expect(witness["status"] as? String == "confirmed")
        let steps = try #require(witness["steps"] as? [[String: Any]])
        #expect(steps.map { $0["verdict"] as? String } == ["deny", "allow", "allow"])
        let sarif = try RulesBinary.run(["check", rules, "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.output.utf8)) as? [String: Any])
        let result = try #require(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let flows = try #require(result["codeFlows"] as? [[String: Any]])
        let locations = try #require((flows.first?["threadFlows"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])
        #expect(locations.count == 3)
        let text = try #require((result["message"] as? [String: Any])?["text"] as? String)
        #expect(text.contains("Witness (the engine ran it): as a signed-in stranger (uid mallory)"))
        // The rules the escalation concerns: `related` in JSON, `relatedLocations` in SARIF.
        let related = try #require(diagnostic["related"] as? [[String: Any]])
        #expect(related.contains { ($0["message"] as? String)?.contains("the .write at /grades trusts") == true && $0["line"] as? Int == 3 })
        #expect(diagnostic["anchor"] as? String == "/users/$uid .write grants /users/{auth.uid}/role = \"teacher\"")
        let relatedLocations = try #require(result["relatedLocations"] as? [[String: Any]])
        #expect(relatedLocations.count == related.count)
        #expect(relatedLocations.allSatisfy { ($0["physicalLocation"] as? [String: Any])?["region"] != nil && $0["message"] != nil })
    }
}
