import RulesCoverage
import RulesRuntime
import RulesSyntax

/// The targaryen test format: `{root, users: {name: auth or null}, tests: {path: {canRead,
/// cannotRead, canWrite, cannotWrite}}}`, run against the rules given with `--rules`.
///
/// Each entry of a `can…`/`cannot…` list becomes a one-step test: a read (`"user name"`) or a
/// set (`{auth: "user name", data: value}`) at the path. Users map straight to the `auth`
/// variable, and reads are plain reads.
enum TargaryenSpec {
    /// The members of the document, of a path's checks, and of a write check.
    static let documentKeys: Set<String> = ["root", "users", "tests"]
    static let checkKinds: Set<String> = ["canRead", "cannotRead", "canWrite", "cannotWrite"]
    static let writeCheckKeys: Set<String> = ["auth", "data"]

    /// True when the document looks like targaryen's: `tests` is an object, not a list.
    static func matches(_ root: SpecNode) -> Bool {
        guard let tests = root["tests"], case .object = tests.kind else { return false }
        return true
    }

    static func load(_ root: SpecNode, context c: SpecContext, rules: LoadedRules) throws(TestSpecError) -> TestSpec {
        let members = try c.object(root, "a targaryen spec")
        try c.checkKeys(members, allowed: documentKeys, in: "a targaryen spec")
        let data = try root["root"].map { (n) throws(TestSpecError) in try c.storedInput(n, at: .root) }
        var users: [String: AuthValue] = [:]
        if let u = root["users"] {
            for m in try c.object(u, "'users'") { users[m.key] = c.authValue(m.value) }
        }
        func user(_ node: SpecNode) throws(TestSpecError) -> (String, AuthValue) {
            let name = try c.string(node, "a user")
            guard let auth = users[name] else {
                let known = users.keys.sorted().joined(separator: ", ")
                throw c.error(node, "unknown user '\(name)'" + (known.isEmpty ? "" : " (known: \(known))"))
            }
            return (name, auth)
        }
        var tests: [TestCase] = []
        for pathMember in try c.object(root["tests"] ?? root, "'tests'") {
            let path = "/" + pathMember.key.drop { $0 == "/" }
            let checks = try c.object(pathMember.value, "the checks of '\(pathMember.key)'")
            try c.checkKeys(checks, allowed: checkKinds, in: "the checks of '\(pathMember.key)'")
            for check in checks {
                guard case .array(let entries) = check.value.kind else {
                    throw c.error(check.value, "'\(check.key)' must be a list, not \(check.value.kindDescription)")
                }
                let allow = check.key.hasPrefix("can") && !check.key.hasPrefix("cannot")
                let isRead = check.key.hasSuffix("Read")
                // Each test is named "<user> can read /path": the part after the user is the
                // same for the whole list.
                let suffix = " " + (allow ? "can " : "cannot ") + (isRead ? "read" : "write") + " " + path
                for entry in entries {
                    let name: String, auth: AuthValue, operation: StepOperation
                    if isRead {
                        (name, auth) = try user(entry)
                        operation = .read(path: path, query: .none)
                    } else {
                        let fields = try c.object(entry, "a write check")
                        try c.checkKeys(fields, allowed: writeCheckKeys, in: "a write check")
                        guard let who = entry["auth"] else { throw c.error(entry, "a write check needs 'auth'") }
                        (name, auth) = try user(who)
                        guard let value = entry["data"] else { throw c.error(entry, "a write check needs 'data'") }
                        operation = .set(path: path, value: try c.dataInput(value))
                    }
                    var testName = ""
                    testName.reserveCapacity(name.utf8.count + suffix.utf8.count)
                    testName += name
                    testName += suffix
                    let step = TestStep(auth: auth, caller: name, operation: operation, now: nil, expectAllow: allow, location: entry.location)
                    tests.append(TestCase(name: testName, location: entry.location, data: nil, seed: [], now: nil, steps: [step]))
                }
            }
        }
        return TestSpec(path: c.path, rules: rules, now: nil, data: data, tests: tests)
    }
}
