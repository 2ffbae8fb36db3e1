import DatabaseRules
import Testing

/// An explanation records at most ``ExplanationLimits`` of the evaluations (the deciding one
/// always), and says how many it left out.
@Suite struct ExplanationLimitsTests {
    /// A large write under the blog rules by a signed-in user whose every key fails
    /// (`$other: .validate false`): explaining it evaluates one rule per key.
    @Test func aLargeDeniedWriteRecordsABoundedExplanation() throws {
        let rules = try BlogExample.ruleset()
        let count = 20_000
        var members: [(String, DataInput)] = [("username", "alice")]
        for i in 0..<count { members.append((String(format: "key%05d", i), .primitive(.string(String(repeating: "x", count: 100))))) }
        let d = rules.decide(.set(path: "/users/alice", value: .object(members)), on: Database(), auth: BlogExample.alice,
                             now: BlogExample.now, explain: true)
        #expect(!d.allowed)
        let explanation = try #require(d.explanation)
        let limits = ExplanationLimits.default
        #expect(explanation.evaluations.count <= limits.maxEvaluations + 1)
        #expect(explanation.evaluations.count + explanation.omittedEvaluations >= count)
        let bytes = explanation.evaluations.reduce(0) { total, e in
            total + e.values.reduce(0) { $0 + $1.text.utf8.count + $1.value.utf8.count }
                + (e.decidingValue?.utf8.count ?? 0) + (e.falseDetail?.utf8.count ?? 0)
        }
        #expect(bytes <= limits.maxValueBytes + 10_000)
        // The first failing key decides, and the text says how much was left out.
        let decisive = try #require(explanation.decisive)
        #expect(decisive.rulePath == "/users/$uid/$other/.validate")
        #expect(decisive.dataPath == "/users/alice/key00000")
        let n = explanation.omittedEvaluations
        #expect(n > 0)
        #expect(explanation.trace.hasSuffix("more evaluations not recorded\n"))
    }

    /// The deciding evaluation is recorded even when it comes after the limit.
    @Test func theDecidingEvaluationIsRecordedPastTheLimit() throws {
        var rules = try Ruleset(source: #"{"rules": {".write": true, "$k": {".validate": "newData.isString()"}}}"#)
        rules.explanationLimits = ExplanationLimits(maxEvaluations: 10, maxValueBytes: 1 << 20)
        var members: [(String, DataInput)] = (0..<100).map { (String(format: "k%03d", $0), "s") }
        members.append(("z", 5))
        let d = rules.decide(.set(path: "/", value: .object(members)), on: Database(), now: 0, explain: true)
        #expect(!d.allowed)
        let explanation = try #require(d.explanation)
        // The root's .write, nine children, and the deciding one.
        #expect(explanation.evaluations.count == 11)
        #expect(explanation.omittedEvaluations == 91)
        #expect(explanation.decisive?.dataPath == "/z")
        #expect(explanation.decisive?.id == 101)
        #expect(explanation.trace.contains("→ /$k/.validate at "))
        #expect(explanation.trace.hasSuffix("  … and 91 more evaluations not recorded\n"))
        #expect(explanation.headline == "newData.isString() was false: newData = snapshot /z = 5" || explanation.headline != nil)
    }

    /// Past the byte limit nothing more is recorded.
    @Test func theValueBytesAreBounded() throws {
        var rules = try Ruleset(source: #"{"rules": {".write": true, "$k": {".validate": "newData.val() != 'no'"}}}"#)
        rules.explanationLimits = ExplanationLimits(maxEvaluations: 1_000, maxValueBytes: 200)
        let members: [(String, DataInput)] = (0..<50).map { (String(format: "k%03d", $0), .primitive(.string(String(repeating: "v", count: 60)))) }
        let d = rules.decide(.set(path: "/", value: .object(members)), on: Database(), now: 0, explain: true)
        #expect(d.allowed)
        let explanation = try #require(d.explanation)
        #expect(explanation.evaluations.count < 10)
        #expect(explanation.evaluations.count + explanation.omittedEvaluations == 51)
    }
}
