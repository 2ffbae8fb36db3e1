import DatabaseRules
import Testing

/// An explanation for the caller (`redactUnreadable: true`) shows `<unreadable>` for every value
/// derived from data the caller may not read, and keeps what the caller wrote or may read; the
/// full explanation (for the administrator and the log) is unchanged.
@Suite struct RedactionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var rules: String
        var data: String
        var operation: DatabaseOperation
        var auth: AuthValue = .null
        /// In the redacted explanation's text.
        var shows: [String]
        var hides: [String]
        var testDescription: String { name }
    }

    static let pinRules = #"{"rules": {"pin": {".read": false}, "guess": {".write": "newData.val() === root.child('pin').val()"}}}"#

    static let cases: [Case] = [
        Case(name: "the PIN compared with a guess", rules: pinRules, data: #"{"pin": "4821"}"#,
             operation: .set(path: "/guess", value: "0000"),
             shows: ["newData.val() === root.child('pin').val() was false: '0000' === <unreadable>"], hides: ["4821"]),
        Case(name: "a readable location", rules: #"{"rules": {"pin": {".read": true}, "guess": {".write": "newData.val() === root.child('pin').val()"}}}"#,
             data: #"{"pin": "4821"}"#, operation: .set(path: "/guess", value: "0000"),
             shows: ["'0000' === '4821'", "root.child('pin') = snapshot /pin = '4821'"], hides: ["=== <unreadable>"]),
        Case(name: "a location readable by the signed-in caller",
             rules: #"{"rules": {"pin": {".read": "auth != null"}, "guess": {".write": "newData.val() === root.child('pin').val()"}}}"#,
             data: #"{"pin": "4821"}"#, operation: .set(path: "/guess", value: "0000"), auth: .user(uid: "u"),
             shows: ["'0000' === '4821'"], hides: ["=== <unreadable>"]),
        Case(name: "the value the caller wrote, where nothing is readable",
             rules: #"{"rules": {"guess": {".write": "newData.val().length > 10"}}}"#, data: #"{"guess": "old secret"}"#,
             operation: .set(path: "/guess", value: "0000"), shows: ["4 > 10", "newData.val() = '0000'"], hides: ["<unreadable>", "old secret"]),
        Case(name: "newData of an untouched sibling under .read false",
             rules: #"{"rules": {"secret": {".read": false}, "a": {".write": "newData.parent().child('secret').val() === 'x'"}}}"#,
             data: #"{"secret": "s3cr3t"}"#, operation: .set(path: "/a", value: 1),
             shows: ["<unreadable> === 'x'", "snapshot /secret = <unreadable>"], hides: ["s3cr3t", "{a, secret}"]),
        Case(name: "the keys hasChildren missed on an unreadable node",
             rules: #"{"rules": {"profile": {".read": false}, "a": {".write": "root.child('profile').hasChildren(['name', 'age'])"}}}"#,
             data: #"{"profile": {"name": "n"}}"#, operation: .set(path: "/a", value: 1),
             shows: ["root.child('profile') = snapshot /profile = <unreadable>"], hides: ["missing", "{name}"]),
        Case(name: "a number computed from an unreadable node",
             rules: #"{"rules": {"n": {".read": false, ".write": "newData.val() === data.val() + 1"}}}"#,
             data: #"{"n": 41}"#, operation: .set(path: "/n", value: 5),
             shows: ["5 === <unreadable>", "data.val() + 1 = <unreadable>"], hides: ["41", "42"]),
        Case(name: "exists() on an unreadable location",
             rules: #"{"rules": {"flag": {".read": false}, "a": {".write": "!root.child('flag').exists()"}}}"#,
             data: #"{"flag": true}"#, operation: .set(path: "/a", value: 1),
             shows: ["root.child('flag').exists() = <unreadable>"], hides: ["exists() = true"]),
        Case(name: "an operand after an unreadable one is not shown",
             rules: #"{"rules": {"pin": {".read": false}, "g": {".write": "root.child('pin').val() === '4821' && newData.val() === 'x'"}}}"#,
             data: #"{"pin": "4821"}"#, operation: .set(path: "/g", value: "0000"),
             shows: ["root.child('pin').val() === '4821' = <unreadable>"], hides: ["'0000'", "newData.val() = '", "newData = "]),
        Case(name: "a path computed from an unreadable value",
             rules: #"{"rules": {"ptr": {".read": false}, "$k": {".read": true}, "a": {".write": "root.child(root.child('ptr').val()).val() === 'x'"}}}"#,
             data: #"{"ptr": "target", "target": "t"}"#, operation: .set(path: "/a", value: 1),
             shows: ["<unreadable> === 'x'"], hides: ["target", "'t'"]),
        Case(name: "every alternative of an || that read an unreadable location",
             rules: #"{"rules": {"pin": {".read": false}, "g": {".write": "root.child('pin').val() === '4821' || newData.val() === 'x'"}}}"#,
             data: #"{"pin": "1111"}"#, operation: .set(path: "/g", value: "0000"),
             shows: ["root.child('pin').val() === '4821' was false: <unreadable> === '4821'", "newData.val() === 'x' was false\n"],
             hides: ["1111"]),
        Case(name: "a read denied by a rule that reads an unreadable location",
             rules: #"{"rules": {"pin": {".read": false}, "doc": {".read": "root.child('pin').val() === 'open'"}}}"#,
             data: #"{"pin": "4821"}"#, operation: .read(path: "/doc"),
             shows: ["<unreadable> === 'open'"], hides: ["4821"]),
    ]

    @Test(arguments: cases)
    func redactedExplanation(_ c: Case) throws {
        let rules = try Ruleset(source: c.rules)
        let db = try Database(json: c.data)
        let d = rules.decide(c.operation, on: db, auth: c.auth, now: 1, explain: true, redactUnreadable: true)
        #expect(!d.allowed)
        let explanation = try #require(d.explanation)
        #expect(explanation.isRedacted)
        let text = explanation.trace
        for s in c.shows { #expect(text.contains(s), "expected \(s) in:\n\(text)") }
        for s in c.hides { #expect(!text.contains(s), "did not expect \(s) in:\n\(text)") }
        // The one-line fields a server's denial reason is made of are redacted too.
        let decisive = try #require(explanation.decisive)
        for field in [decisive.falseDetail, decisive.decidingValue, decisive.falsePart].compactMap({ $0 }) + decisive.values.map(\.value) {
            for s in c.hides where s != "<unreadable>" { #expect(!field.contains(s), "\(field)") }
        }
        // The decision is the same as without an explanation.
        #expect(rules.decide(c.operation, on: db, auth: c.auth, now: 1).allowed == d.allowed)
    }

    /// The full explanation, for the administrator and the log, shows every value.
    @Test func theFullExplanationIsUnchanged() throws {
        let rules = try Ruleset(source: Self.pinRules)
        let db = try Database(json: #"{"pin": "4821"}"#)
        let d = rules.decide(.set(path: "/guess", value: "0000"), on: db, now: 1, explain: true)
        let explanation = try #require(d.explanation)
        #expect(!explanation.isRedacted)
        #expect(explanation.headline == "newData.val() === root.child('pin').val() was false: '0000' === '4821'")
        #expect(!explanation.trace.contains("<unreadable>"))
    }

    /// Whatever the unreadable data holds, the caller gets the same redacted explanation for a
    /// denied request: it is no oracle.
    @Test(arguments: [
        (pinRules, #"{"pin": "4821"}"#, #"{"pin": "0001"}"#, DatabaseOperation.set(path: "/guess", value: "0000")),
        (#"{"rules": {"pin": {".read": false}, "g": {".write": "root.child('pin').val() === '4821' && newData.val() === 'x'"}}}"#,
         #"{"pin": "4821"}"#, #"{"pin": "1111"}"#, DatabaseOperation.set(path: "/g", value: "0000")),
        (#"{"rules": {"pin": {".read": false}, "g": {".write": "root.child('pin').val() === '4821' ? newData.val() === 'x' : false"}}}"#,
         #"{"pin": "4821"}"#, #"{"pin": "1111"}"#, DatabaseOperation.set(path: "/g", value: "0000")),
        (#"{"rules": {"pin": {".read": false}, ".write": "root.child('pin').val() === '4821' && auth.uid === 'x'", "g": {".write": "newData.val() === 'y'"}}}"#,
         #"{"pin": "4821"}"#, #"{"pin": "1111"}"#, DatabaseOperation.set(path: "/g", value: "0000")),
        (#"{"rules": {"pin": {".read": false}, ".write": true, "g": {".validate": "root.child('pin').val().length === 5 && newData.val() === 'x'"}}}"#,
         #"{"pin": "4821"}"#, #"{"pin": "12345"}"#, DatabaseOperation.set(path: "/g", value: "0000")),
        (#"{"rules": {"pin": {".read": false}, "g": {".write": "(root.child('pin').val() === '4821' && newData.val() === 'y') || newData.val() === 'x'"}}}"#,
         #"{"pin": "4821"}"#, #"{"pin": "1111"}"#, DatabaseOperation.set(path: "/g", value: "0000")),
    ] as [(String, String, String, DatabaseOperation)])
    func theRedactedExplanationDoesNotDependOnUnreadableData(rules source: String, first: String, second: String, operation: DatabaseOperation) throws {
        let rules = try Ruleset(source: source)
        let a = rules.decide(operation, on: try Database(json: first), now: 1, explain: true, redactUnreadable: true)
        let b = rules.decide(operation, on: try Database(json: second), now: 1, explain: true, redactUnreadable: true)
        #expect(!a.allowed && !b.allowed)
        #expect(a.explanation?.trace == b.explanation?.trace)
        #expect(a.explanation?.isRedacted == true)
    }

    /// One redacted run also keeps the unredacted explanation for the host's log: the same
    /// text as a separate unredacted run gives.
    @Test(arguments: cases) func oneRunGivesBothExplanations(_ c: Case) throws {
        let ruleset = try Ruleset(source: c.rules)
        let database = try Database(json: c.data)
        let both = ruleset.decide(c.operation, on: database, auth: c.auth, now: 0, explain: true, redactUnreadable: true)
        let full = ruleset.decide(c.operation, on: database, auth: c.auth, now: 0, explain: true)
        let redacted = try #require(both.explanation), unredacted = try #require(both.unredactedExplanation)
        #expect(redacted.isRedacted && !unredacted.isRedacted)
        #expect("\(unredacted)" == "\(try #require(full.explanation))")
        #expect(ruleset.decide(c.operation, on: database, auth: c.auth, now: 0, explain: true).unredactedExplanation == nil)
    }
}
