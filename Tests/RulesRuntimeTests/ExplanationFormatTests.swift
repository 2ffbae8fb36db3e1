import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// How explanations are rendered for people (what is shown, never what is decided): the first
/// line names the deciding false part, `hasChildren` names the missing keys, repeated ancestor
/// evaluations are shown once, objects by their keys, long source lines cut around the carets.
@Suite struct ExplanationFormatTests {
    func lines(_ d: Decision) -> [String] {
        (d.explanation?.trace ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func theFirstLineNamesTheFalseConjunct() throws {
        let rules = #"{"rules": {"a": {".write": "auth != null && newData.val() > 5 && newData.isNumber()"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a", value: 3), root: nil, auth: .user(uid: "u"))
        #expect(!d.allowed)
        let text = lines(d)
        #expect(text[0] == "set /a: denied: newData.val() > 5 was false: 3 > 5")
        #expect(text[1] == "  at database.rules.json:1:45 in /a/.write on /a")
        #expect(text[2] == #"    {"rules": {"a": {".write": "auth != null && newData.val() > 5 && newData.isNumber()"}}}"#)
        #expect(text[3] == String(repeating: " ", count: 4 + 44) + String(repeating: "^", count: 17))
        // Then the trace, as before.
        #expect(text[4].hasPrefix("  → /a/.write at database.rules.json:1:28 on /a: false"))
    }

    @Test func aWholeRuleThatIsFalseIsNamedWhole() throws {
        let rules = #"{"rules": {"a": {".write": "newData.isString()"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a", value: 3), root: nil)
        #expect(lines(d)[0] == "set /a: denied: newData.isString() was false: newData = snapshot /a = 3")
    }

    @Test func aConstantFalseRuleAndARuntimeError() throws {
        let constant = try RuleProbe.decide(#"{"rules": {"a": {".write": false}}}"#, .set(path: "/a", value: 1), root: nil)
        #expect(lines(constant)[0] == "set /a: denied: /a/.write is false")
        #expect(lines(constant)[3].hasSuffix("^^^^^"))
        let error = try RuleProbe.decide(#"{"rules": {"a": {".write": "newData.val() + data.val() > 1"}}}"#, .set(path: "/a", value: 1), root: nil)
        #expect(lines(error)[0].hasPrefix("set /a: denied: error in /a/.write: "))
        #expect(lines(error)[1].hasPrefix("  at database.rules.json:1:"))
    }

    @Test func hasChildrenNamesEveryMissingKey() throws {
        let rules = #"{"rules": {".write": true, "p": {".validate": "newData.hasChildren(['title', 'body', 'meta/author'])"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/p", value: ["title": "T", "meta": ["x": 1]]), root: nil)
        #expect(lines(d)[0] == "set /p: denied: newData.hasChildren(['title', 'body', 'meta/author']) was false: missing 'body', 'meta/author'")
        let decisive = try #require(d.explanation?.decisive)
        #expect(decisive.falseDetail == "missing 'body', 'meta/author'")
        #expect(decisive.falsePart == nil)
    }

    @Test func anAncestorSharedByTheUpdatePathsIsShownOnce() throws {
        let rules = #"{"rules": {"room": {".write": "auth != null", "$msg": {".validate": "newData.isString()"}}}}"#
        let d = try RuleProbe.decide(rules, .update(path: "/", values: [("room/a", "x"), ("room/b", "y"), ("room/c", 3)]), root: nil)
        #expect(!d.allowed)
        let text = lines(d)
        #expect(text[0] == "update /: denied: /room/.write is false" || text[0].hasPrefix("update /: denied: auth != null was false"))
        // Three evaluations of the same rule, at the same place, with the same values.
        #expect(d.explanation?.evaluations.count == 3)
        #expect(text.filter { $0.contains("/room/.write at ") }.count == 1)
        #expect(text.contains { $0.hasSuffix("/room/.write at database.rules.json:1:31 on /room: false (also for 2 other paths)") }, "\(text)")
    }

    @Test func objectsAreShownByTheirKeys() throws {
        let rules = #"{"rules": {"p": {".write": "auth.token == null || data.val() == null"}}}"#
        let root = try RuleProbe.tree(#"{"p": {"e": 1, "d": 2, "c": 3, "b": 4, "a": 5}}"#)
        let d = try RuleProbe.decide(rules, .set(path: "/p", value: 1), root: root, auth: .user(uid: "u", claims: ["z": 1]))
        let text = lines(d).joined(separator: "\n")
        #expect(text.contains("data = snapshot /p = {a, b, +3 more}"))
        #expect(text.contains("data.val() = {a, b, +3 more}"))
        // Both alternatives of the `||`, each with its values (their source cut to keep the
        // line within 120 columns; whole in the trace).
        #expect(text.hasPrefix("set /p: denied: auth.token ==… was false: {firebase, sub, z} == null; data.val() ==… was false: {a, b, +3 more} == null\n"), "\(text)")
        #expect(text.contains("\n    - auth.token == null was false: {firebase, sub, z} == null\n"), "\(text)")
        #expect(ExplanationFormat.objectSummary(firstKeys: [], count: 0) == "{}")
        #expect(ExplanationFormat.objectSummary(firstKeys: ["a", "b", "c"], count: 3) == "{a, b, c}")
        #expect(ExplanationFormat.objectSummary(firstKeys: ["a", "b", "c"], count: 4) == "{a, b, +2 more}")
        #expect(ExplanationFormat.objectSummary(firstKeys: ["a b", ""], count: 2) == "{'a b', ''}")
        #expect(ExplanationFormat.authSummary(.array([1, 2])) == "[2 items]")
    }

    @Test func longStringsStayClipped() throws {
        let long = String(repeating: "x", count: 200)
        let rules = #"{"rules": {"a": {".write": "newData.val().length < 10"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a", value: .string(long)), root: nil)
        let text = lines(d).joined(separator: "\n")
        #expect(text.contains("newData.val() = '" + String(repeating: "x", count: 80) + "…'"))
    }

    @Test func caretsUnderALongLineAreCutToAWindow() {
        let line = String(repeating: "a", count: 150) + "TARGET" + String(repeating: "b", count: 150)
        let excerpt = SourceExcerpt(location: SourceLocation(line: 1, column: 151), line: line, start: 150, length: 6)
        let (source, carets) = excerpt.rendered(width: 60)
        #expect(source.count == 60)
        #expect(source.hasPrefix("…") && source.hasSuffix("…"))
        let column = carets.firstIndex(of: "^").map { carets.distance(from: carets.startIndex, to: $0) }
        #expect(column.map { String(Array(source)[$0..<($0 + 6)]) } == "TARGET")
        #expect(carets.trimmingPrefix(while: { $0 == " " }) == "^^^^^^")

        // At the start of the line: nothing cut before it.
        let first = SourceExcerpt(location: SourceLocation(line: 1, column: 1), line: line, start: 0, length: 3).rendered(width: 60)
        #expect(first.source.hasPrefix("aaa") && first.source.hasSuffix("…") && first.carets == "^^^")
        // At its end: nothing cut after it.
        let last = SourceExcerpt(location: SourceLocation(line: 1, column: 304), line: line, start: 303, length: 3).rendered(width: 60)
        #expect(last.source.hasPrefix("…") && last.source.hasSuffix("bbb") && last.source.count == 59)
        #expect(last.carets.count == last.source.count && last.carets.hasSuffix("^^^"))
        // A span wider than the window: cut at its end.
        let wide = SourceExcerpt(location: SourceLocation(line: 1, column: 11), line: line, start: 10, length: 200).rendered(width: 60)
        #expect(wide.source.count == 60 && wide.carets.hasSuffix(String(repeating: "^", count: 58)))
        // A short line is shown whole, without its indentation.
        let short = SourceExcerpt(location: SourceLocation(line: 1, column: 7), line: "\t  x && y", start: 8, length: 1).rendered()
        #expect(short.source == "x && y" && short.carets == "     ^")
    }

    @Test func decisionsAreTheSameWithAndWithoutExplanations() throws {
        let rules = #"{"rules": {"p": {".write": "auth != null", ".validate": "newData.hasChildren(['a', 'b'])"}}}"#
        let ruleset = try RuleProbe.ruleset(rules)
        let engine = RulesEngine(ruleset: ruleset)
        for value: DataInput in [["a": 1], ["a": 1, "b": 2], 5] {
            let plain = engine.decide(.set(path: "/p", value: value), on: nil, auth: .user(uid: "u"), now: RuleProbe.now)
            let explained = engine.decide(.set(path: "/p", value: value), on: nil, auth: .user(uid: "u"), now: RuleProbe.now, explain: true)
            #expect(plain.allowed == explained.allowed)
            #expect(plain.reason == explained.reason)
        }
    }
}
