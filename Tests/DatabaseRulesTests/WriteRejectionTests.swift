import DatabaseRules
import Testing

/// Writes the library refuses as invalid, with nothing written: an increment whose sum is not a
/// finite number, and an update path that names the update's own location.
@Suite struct WriteRejectionTests {
    static let open = #"{"rules": {".read": true, ".write": true}}"#

    @Test(arguments: [
        (DatabaseOperation.set(path: "/n", value: .increment(1e308)), "increment at /n would overflow"),
        (DatabaseOperation.update(path: "/", values: [("n", .increment(1e308)), ("m", 1)]), "increment at /n would overflow"),
        (DatabaseOperation.set(path: "/", value: ["n": .increment(1e308)]), "increment at /n would overflow"),
        (DatabaseOperation.set(path: "/n", value: .increment(-1e308)), nil),
    ] as [(DatabaseOperation, String?)])
    func anIncrementThatOverflowsIsRejected(operation: DatabaseOperation, message: String?) throws {
        let rules = try Ruleset(source: Self.open)
        for explain in [false, true] {
            var db = Database()
            db.apply(.set(path: "/n", value: 1.7976931348623157e308), rules: rules, now: 1)
            let before = db.description
            let d = db.apply(operation, rules: rules, now: 1, explain: explain)
            if let message {
                #expect(!d.allowed)
                #expect(d.isRejected)
                #expect(d.reason?.hasPrefix(message) == true, "\(d.reason ?? "nil")")
                // The stored number is not named (the caller may not be allowed to read it).
                #expect(d.reason?.contains("1.7976931348623157e+308") == false)
                #expect(db.description == before)
            } else {
                #expect(d.allowed)
            }
        }
    }

    /// A caller who may not write learns nothing from an increment that would overflow: the
    /// rules deny first.
    @Test func aDeniedIncrementIsDeniedNotRejected() throws {
        let rules = try Ruleset(source: #"{"rules": {"n": {".write": "auth != null"}}}"#)
        var db = Database()
        db.apply(.set(path: "/n", value: 1.7976931348623157e308), rules: .open, now: 1)
        let d = rules.decide(.set(path: "/n", value: .increment(1e308)), on: db, now: 1)
        #expect(!d.allowed)
        #expect(!d.isRejected)
        #expect(d.reason?.contains("overflow") == false)
    }

    @Test(arguments: ["", "/", "//"])
    func anEmptyUpdatePathIsRejected(path: String) throws {
        let rules = try Ruleset(source: Self.open)
        for base in ["/", "/a"] {
            for explain in [false, true] {
                var db = try Database(json: #"{"a": {"b": 1, "c": 2}}"#)
                let d = db.apply(.update(path: base, values: [(path, .object([("x", 1)]))]), rules: rules, now: 1, explain: explain)
                #expect(!d.allowed)
                #expect(d.isRejected)
                #expect(d.reason?.contains("Invalid update path '\(path)'") == true, "\(d.reason ?? "nil")")
                #expect(db.exportJSON(at: "/a") == #"{"b":1,"c":2}"#)
            }
        }
    }
}
