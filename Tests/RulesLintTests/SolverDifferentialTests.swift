import Foundation
import DatabaseRules
import RulesCompiler
import RulesLint
import RulesSolver
import RulesSyntax
import RulesTestSupport
import Testing

/// The solver's encoding against the engine: generated rules, data and requests, each request
/// asked of the solver with every unknown given (who, the keys, the data before, the value
/// written). Where the engine allows, the `prove` encoding must be satisfiable (else a `never`
/// would deny what the engine allows); the `find` encoding must agree with the engine both ways
/// (else its models would be requests the engine denies, or miss allowed ones).
@Suite struct SolverDifferentialTests {
    /// One generated case: a rules file and its requests.
    struct Case {
        var rules: String
        var data: SolverTree
        var requests: [Request]
    }

    struct Request {
        enum Kind { case read, set(SolverTree), delete }
        var kind: Kind
        var key: String
        var uid: String?
    }

    static let keys = ["k1", "k2", "u1"]
    static let strings = ["'a'", "'ab'", "'k1'", "'u1'", "'x-1'", "''"]

    /// A random expression of the rules language over the location `/a/$k` (with literal children
    /// `x` and `y`), `/b/$k` through `root`, `auth` and `$k`.
    struct Generator {
        var random: SplitMix64
        let write: Bool

        mutating func value(_ depth: Int) -> String {
            var options = ["data.child('x').val()", "data.child('y').val()", "root.child('b').child($k).val()", "auth.uid", "$k"]
            options += Self.literals
            if write { options += ["newData.child('x').val()", "newData.child('y').val()"] }
            if depth > 0 {
                options += ["(\(value(depth - 1)) + \(value(depth - 1)))", "\(string(depth - 1)).length"]
            }
            return random.pick(options)
        }

        static let literals = strings + ["0", "1", "3", "-2", "true", "null"]

        mutating func string(_ depth: Int) -> String {
            random.pick(["auth.uid", "$k", "data.child('x').val()", write ? "newData.child('x').val()" : "root.child('b').child($k).val()"] + strings)
        }

        mutating func condition(_ depth: Int) -> String {
            var options = [
                "\(value(depth)) == \(value(depth))", "\(value(depth)) != \(value(depth))", "\(value(depth)) < \(value(depth))",
                "\(value(depth)) >= \(value(depth))", "auth != null", "auth == null",
                "\(snapshot()).exists()", "\(snapshot()).isString()", "\(snapshot()).isNumber()", "\(snapshot()).hasChildren()",
                "\(string(depth)).beginsWith(\(random.pick(strings)))", "\(string(depth)).contains(\(random.pick(strings)))",
                "\(string(depth)).matches(/\(random.pick(["^k[0-9]$", "^[a-z]+$", "-", "^$", "b$"]))/)",
            ]
            if write { options += ["newData.hasChildren(['x', 'y'])", "!newData.exists()"] }
            if depth > 0 {
                options += [
                    "(\(condition(depth - 1)) && \(condition(depth - 1)))", "(\(condition(depth - 1)) || \(condition(depth - 1)))",
                    "!(\(condition(depth - 1)))", "(\(condition(depth - 1)) ? \(condition(depth - 1)) : \(condition(depth - 1)))",
                ]
            }
            return random.pick(options)
        }

        mutating func snapshot() -> String {
            random.pick(write ? ["data", "newData", "newData.child('x')", "data.child('y')", "root.child('b').child($k)"] : ["data", "data.child('x')", "root.child('b').child($k)"])
        }
    }

    static func leaf(_ random: inout SplitMix64) -> SolverTree {
        random.pick([.leaf(.string("a")), .leaf(.string("u1")), .leaf(.string("x-1")), .leaf(.number(1)), .leaf(.number(3)), .leaf(.bool(true)), .leaf(.string("k1"))])
    }

    static func record(_ random: inout SplitMix64) -> SolverTree? {
        var m: [String: SolverTree] = [:]
        if random.chance(0.6) { m["x"] = leaf(&random) }
        if random.chance(0.5) { m["y"] = leaf(&random) }
        if m.isEmpty { return random.chance(0.5) ? leaf(&random) : nil }
        return .object(m)
    }

    static func makeCase(seed: UInt64) -> Case {
        var random = SplitMix64(seed: seed)
        var read = Generator(random: SplitMix64(seed: seed &* 31 &+ 1), write: false)
        var write = Generator(random: SplitMix64(seed: seed &* 31 &+ 2), write: true)
        let rules = """
            {"rules": {"a": {"$k": {".read": "\(read.condition(2))", ".write": "\(write.condition(2))", ".validate": "\(write.condition(1))",
              "x": {".validate": "\(write.condition(1))"}}}, "b": {".read": true}}}
            """
        var a: [String: SolverTree] = [:]
        var b: [String: SolverTree] = [:]
        for k in keys {
            if let r = record(&random) { a[k] = r }
            if random.chance(0.5) { b[k] = leaf(&random) }
        }
        var top: [String: SolverTree] = [:]
        if !a.isEmpty { top["a"] = .object(a) }
        if !b.isEmpty { top["b"] = .object(b) }
        var requests: [Request] = []
        for _ in 0..<8 {
            let key = random.pick(keys)
            let uid = random.chance(0.25) ? nil : random.pick(["u1", "u2"])
            switch random.below(3) {
            case 0: requests.append(Request(kind: .read, key: key, uid: uid))
            case 1: requests.append(Request(kind: .delete, key: key, uid: uid))
            default:
                guard let v = record(&random) else { continue }
                requests.append(Request(kind: .set(v), key: key, uid: uid))
            }
        }
        return Case(rules: rules, data: .object(top), requests: requests)
    }

    static func json(_ t: SolverTree) -> String {
        switch t {
        case .leaf(.string(let s)): return JSONText.quote(s)
        case .leaf(.number(let n)): return String(Int(n))
        case .leaf(.bool(let b)): return b ? "true" : "false"
        case .leaf: return "null"
        case .object(let m): return "{" + m.keys.sorted().map { JSONText.quote($0) + ":" + json(m[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// The counts of one run.
    struct Tally {
        var requests = 0, allowed = 0, unknown = 0
        var neverButAllowed: [String] = []
        var findDisagrees: [String] = []
    }

    static func run(seeds: Range<UInt64>) -> Tally {
        var tally = Tally()
        // Generous: a check takes milliseconds, but the tests may share the machine.
        let solver = AccessSolver(milliseconds: 30000)
        for seed in seeds {
            let c = makeCase(seed: seed)
            guard let rules = try? Ruleset(file: SourceFile(path: "gen.json", text: c.rules)) else { continue }
            let tree = rules.compiled.tree
            guard let a = tree.literalChild("a"), let record = a.wildcard?.node else { continue }
            let database = try! Database(json: json(c.data))
            for r in c.requests {
                let path = "/a/\(r.key)"
                let operation: DatabaseOperation
                var q = AccessQuestion(
                    nodes: [tree, a, record], operation: .read,
                    principal: r.uid.map { .user(uid: $0, provider: "custom", token: [:]) } ?? .signedOut, now: WitnessSearch.now)
                q.keys = ["$k": r.key]
                q.data = c.data
                switch r.kind {
                case .read: operation = .read(path: path)
                case .delete:
                    operation = .delete(path: path)
                    q.operation = .delete
                case .set(let v):
                    operation = .set(path: path, value: try! DataInputReader.read(json: json(v)))
                    q.operation = .set
                    q.value = v
                }
                let auth: AuthValue = r.uid.map { AuthValue.user(uid: $0) } ?? .null
                let allowed = rules.decide(operation, on: database, auth: auth, now: WitnessSearch.now).allowed
                tally.requests += 1
                if allowed { tally.allowed += 1 }
                let label = "seed \(seed) \(r.kind) \(path) as \(r.uid ?? "signed out")\n\(c.rules)\ndata \(json(c.data))"
                switch solver.isSatisfiable(q, mode: .prove) {
                case false?: if allowed { tally.neverButAllowed.append(label) }
                case nil: tally.unknown += 1
                default: break
                }
                switch solver.isSatisfiable(q, mode: .find) {
                case let found?: if found != allowed { tally.findDisagrees.append("engine \(allowed ? "allows" : "denies"): " + label) }
                case nil: tally.unknown += 1
                }
            }
        }
        return tally
    }

    /// The seeds, by hundreds: 300 rules files, or as many as `RULES_SOLVER_DIFFERENTIAL_SEEDS` says
    /// (a longer run by hand, e.g. 2000).
    static let seedChunks: [Range<UInt64>] = {
        let count = ProcessInfo.processInfo.environment["RULES_SOLVER_DIFFERENTIAL_SEEDS"].flatMap { UInt64($0) } ?? 300
        return stride(from: UInt64(0), to: count, by: 100).map { $0..<min($0 + 100, count) }
    }()

    @Test(arguments: seedChunks)
    func theEncodingAgreesWithTheEngine(_ seeds: Range<UInt64>) {
        let t = Self.run(seeds: seeds)
        print("solver against the engine, seeds \(seeds): \(t.requests) requests, \(t.allowed) allowed, \(t.neverButAllowed.count) never though allowed, \(t.findDisagrees.count) find disagreements, \(t.unknown) unknown")
        #expect(t.requests >= 500, "only \(t.requests) requests")
        #expect(t.allowed > t.requests / 20, "only \(t.allowed) of \(t.requests) allowed: the generator tests little")
        #expect(t.neverButAllowed.isEmpty, "never for a request the engine allows:\n\(t.neverButAllowed.prefix(3).joined(separator: "\n\n"))")
        #expect(t.findDisagrees.isEmpty, "\(t.findDisagrees.count) disagreements:\n\(t.findDisagrees.prefix(3).joined(separator: "\n\n"))")
        #expect(t.unknown <= t.requests / 50, "\(t.unknown) unknown answers of \(t.requests)")
    }
}
