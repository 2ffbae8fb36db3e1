import Foundation
import RulesRuntime
import RulesSyntax

/// Loads spec files (YAML, JSON, and targaryen-style JSON) and the rules they name.
///
/// Compiled rules are cached by normalised path, so specs sharing a rules file share one
/// ``LoadedRules`` (and one coverage record).
public struct TestSpecLoader {
    /// The rules used by specs without a `rules:` entry, and by targaryen-style specs (`--rules`).
    public var defaultRulesPath: String?
    private var cache: [String: LoadedRules] = [:]

    /// Creates a loader.
    public init(defaultRulesPath: String? = nil) {
        self.defaultRulesPath = defaultRulesPath
    }

    /// Every rules file loaded so far, by path.
    public var loadedRules: [LoadedRules] { cache.keys.sorted().compactMap { cache[$0] } }

    static let stepKeys: Set<String> = ["as", "read", "query", "set", "value", "update", "values", "delete", "push", "priority", "now", "expect"]
    static let operationKeys = ["read", "set", "update", "delete", "push"]
    static let testKeys: Set<String> = ["name", "data", "seed", "now", "steps"]

    // MARK: - Files

    /// Expands paths: files as given, directories searched recursively for `*.test.yaml`,
    /// `*.test.yml` and `*.test.json` (sorted). A missing path, or a directory without specs, is
    /// an error.
    public static func specFiles(in paths: [String]) throws(TestSpecErrors) -> [String] {
        var out: [String] = []
        var errors: [TestSpecError] = []
        let start = SourceLocation(line: 1, column: 1)
        for p in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory) else {
                errors.append(TestSpecError(file: p, location: start, message: "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                out.append(p)
                continue
            }
            let found = (FileManager.default.enumerator(atPath: p)?.allObjects as? [String] ?? [])
                .filter(isSpecFile).sorted()
            if found.isEmpty {
                errors.append(TestSpecError(file: p, location: start, message: "no *.test.yaml, *.test.yml or *.test.json files in this directory"))
            }
            let base = p.hasSuffix("/") ? String(p.dropLast()) : p
            out += found.map { base + "/" + $0 }
        }
        if !errors.isEmpty { throw TestSpecErrors(errors) }
        return out
    }

    /// True for spec file names.
    public static func isSpecFile(_ name: String) -> Bool {
        name.hasSuffix(".test.yaml") || name.hasSuffix(".test.yml") || name.hasSuffix(".test.json")
    }

    /// Reads and loads a spec file.
    public mutating func load(path: String) throws(TestSpecErrors) -> TestSpec {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestSpecErrors([TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "cannot read the file")])
        }
        return try load(file: SourceFile(path: path, bytes: [UInt8](data)))
    }

    /// Loads a spec from its text: JSON when the path ends in `.json`, YAML otherwise.
    public mutating func load(file: SourceFile) throws(TestSpecErrors) -> TestSpec {
        let context = SpecContext(path: file.path)
        do {
            let root: SpecNode
            if file.path.hasSuffix(".json") {
                root = try SpecNode.readJSON(file)
            } else {
                guard let text = String(validating: file.bytes, as: UTF8.self) else {
                    throw context.error(at: SourceLocation(line: 1, column: 1), "the file is not valid UTF-8")
                }
                root = try SpecNode.readYAML(text, path: file.path)
            }
            if TargaryenSpec.matches(root) {
                return try TargaryenSpec.load(root, context: context, rules: try defaultRules(for: root, context: context, targaryen: true))
            }
            return try spec(root, file: file, context: context)
        } catch let error as TestSpecError {
            throw TestSpecErrors([error])
        } catch let errors as TestSpecErrors {
            throw errors
        } catch {
            throw TestSpecErrors([context.error(at: SourceLocation(line: 1, column: 1), "\(error)")])
        }
    }

    // MARK: - The spec format

    private mutating func spec(_ root: SpecNode, file: SourceFile, context c: SpecContext) throws -> TestSpec {
        let members = try c.object(root, "a spec file")
        try c.checkKeys(members, allowed: ["rules", "now", "data", "auth", "tests"], in: "a spec file")
        let rules: LoadedRules
        if let r = root["rules"] {
            rules = try self.rules(r, file: file, context: c)
        } else {
            rules = try defaultRules(for: root, context: c, targaryen: false)
        }
        let now = try root["now"].map { (n) throws(TestSpecError) in try c.number(n, "'now'") }
        let data = try root["data"].map { (n) throws(TestSpecError) in try c.storedInput(n, at: .root) }
        var identities: [String: AuthValue] = [:]
        if let auth = root["auth"] {
            for m in try c.object(auth, "'auth'") {
                identities[m.key] = try c.identity(m.value)
            }
        }
        guard let testsNode = root["tests"] else { throw c.error(root, "missing 'tests' (a list of tests)") }
        guard case .array(let items) = testsNode.kind else {
            throw c.error(testsNode, "'tests' must be a list, not \(testsNode.kindDescription)")
        }
        var tests: [TestCase] = []
        for (i, item) in items.enumerated() {
            tests.append(try test(item, number: i + 1, identities: identities, context: c))
        }
        return TestSpec(path: file.path, rules: rules, now: now, data: data, tests: tests)
    }

    private func test(_ node: SpecNode, number: Int, identities: [String: AuthValue], context c: SpecContext) throws(TestSpecError) -> TestCase {
        let members = try c.object(node, "a test")
        try c.checkKeys(members, allowed: Self.testKeys.union(Self.stepKeys), in: "a test")
        let name = try node["name"].map { (n) throws(TestSpecError) in try c.string(n, "'name'") } ?? "test \(number)"
        let data = try node["data"].map { (n) throws(TestSpecError) in try c.storedInput(n, at: .root) }
        let now = try node["now"].map { (n) throws(TestSpecError) in try c.number(n, "'now'") }
        var seed: [(path: DataPath, value: DataInput)] = []
        if let s = node["seed"] {
            for m in try c.object(s, "'seed'") {
                let path: DataPath
                do { path = try DataPath(validating: m.key) } catch { throw c.error(at: m.keyLocation, "invalid seed path: \(error.message)") }
                seed.append((path, try c.storedInput(m.value, at: path)))
            }
        }
        var steps: [TestStep] = []
        if let stepsNode = node["steps"] {
            if let stray = members.first(where: { Self.stepKeys.contains($0.key) && $0.key != "now" }) {
                throw c.error(at: stray.keyLocation, "'\(stray.key)' belongs in a step: a test with 'steps' cannot also have step keys")
            }
            guard case .array(let items) = stepsNode.kind else {
                throw c.error(stepsNode, "'steps' must be a list, not \(stepsNode.kindDescription)")
            }
            if items.isEmpty { throw c.error(stepsNode, "'steps' is empty") }
            for item in items { steps.append(try step(item, identities: identities, context: c, stepLevelNow: true)) }
        } else {
            steps.append(try step(node, identities: identities, context: c, stepLevelNow: false))
        }
        return TestCase(name: name, location: node.location, data: data, seed: seed, now: now, steps: steps)
    }

    private func step(_ node: SpecNode, identities: [String: AuthValue], context c: SpecContext, stepLevelNow: Bool) throws(TestSpecError) -> TestStep {
        let members = try c.object(node, "a step")
        if stepLevelNow { try c.checkKeys(members, allowed: Self.stepKeys, in: "a step") }
        let ops = members.filter { Self.operationKeys.contains($0.key) }
        guard let opMember = ops.first else {
            throw c.error(node, "a step needs one operation: read, set, update, delete or push")
        }
        if ops.count > 1 {
            throw c.error(at: ops[1].keyLocation, "a step has two operations: '\(ops[0].key)' and '\(ops[1].key)'")
        }
        let op = opMember.key
        func only(_ key: String, with allowed: [String]) throws(TestSpecError) {
            if let m = members.first(where: { $0.key == key }), !allowed.contains(op) {
                throw c.error(at: m.keyLocation, "'\(key)' goes with \(allowed.map { "'\($0)'" }.joined(separator: " or ")), not '\(op)'")
            }
        }
        try only("query", with: ["read"])
        try only("value", with: ["set", "push"])
        try only("values", with: ["update"])
        try only("priority", with: ["set", "push"])

        let path = try c.string(opMember.value, "'\(op)'")
        func required(_ key: String) throws(TestSpecError) -> SpecNode {
            guard let v = node[key] else { throw c.error(at: opMember.keyLocation, "'\(op)' needs '\(key)'") }
            return v
        }
        func withPriority(_ value: DataInput) throws(TestSpecError) -> DataInput {
            guard let p = node["priority"] else { return value }
            let priority = try c.dataInput(p)
            if case .withPriority(let inner, _) = value { return .withPriority(inner, priority: priority) }
            return .withPriority(value, priority: priority)
        }
        let operation: StepOperation
        switch op {
        case "read":
            operation = .read(path: path, query: try node["query"].map { (q) throws(TestSpecError) in try query(q, context: c) } ?? .none)
        case "set":
            operation = .set(path: path, value: try withPriority(c.dataInput(required("value"))))
        case "push":
            operation = .push(path: path, value: try withPriority(c.dataInput(required("value"))))
        case "delete":
            operation = .delete(path: path)
        default:
            let valuesNode = try required("values")
            var values: [(String, DataInput)] = []
            for m in try c.object(valuesNode, "'values'") { values.append((m.key, try c.dataInput(m.value))) }
            operation = .update(path: path, values: values)
        }

        guard let expectNode = node["expect"] else {
            throw c.error(node, "missing 'expect' (allow or deny)")
        }
        let expectAllow: Bool
        switch expectNode.string {
        case "allow": expectAllow = true
        case "deny": expectAllow = false
        default: throw c.error(expectNode, "'expect' must be allow or deny")
        }

        var auth: AuthValue = .null
        var caller = "unauthenticated"
        if let asNode = node["as"] {
            switch asNode.kind {
            case .null: break
            case .string(let name):
                guard let identity = identities[name] else {
                    let known = identities.keys.sorted().joined(separator: ", ")
                    throw c.error(asNode, "unknown identity '\(name)' in 'as'" + (known.isEmpty ? " (the file has no 'auth')" : " (known: \(known))"))
                }
                auth = identity
                caller = name
            case .object:
                auth = try c.identity(asNode)
                if case .string(let uid) = auth["uid"] { caller = "uid \(uid)" }
            default:
                throw c.error(asNode, "'as' must be a name from 'auth', an identity object or null")
            }
        }
        let now = stepLevelNow ? try node["now"].map { (n) throws(TestSpecError) in try c.number(n, "'now'") } : nil
        return TestStep(auth: auth, caller: caller, operation: operation, now: now, expectAllow: expectAllow, location: node.location)
    }

    private func query(_ node: SpecNode, context c: SpecContext) throws(TestSpecError) -> QueryParameters {
        let members = try c.object(node, "'query'")
        try c.checkKeys(members, allowed: ["orderByKey", "orderByValue", "orderByPriority", "orderByChild", "startAt", "endAt", "equalTo", "limitToFirst", "limitToLast"], in: "'query'")
        var q = QueryParameters()
        for m in members {
            let v = m.value
            switch m.key {
            case "orderByKey": q.orderByKey = try c.bool(v, "'orderByKey'")
            case "orderByValue": q.orderByValue = try c.bool(v, "'orderByValue'")
            case "orderByPriority": q.orderByPriority = try c.bool(v, "'orderByPriority'")
            case "orderByChild": q.orderByChild = v.isNull ? nil : try c.string(v, "'orderByChild'")
            case "startAt": q.startAt = try c.queryBound(v, "'startAt'")
            case "endAt": q.endAt = try c.queryBound(v, "'endAt'")
            case "equalTo": q.equalTo = try c.queryBound(v, "'equalTo'")
            case "limitToFirst": q.limitToFirst = v.isNull ? nil : try c.number(v, "'limitToFirst'")
            default: q.limitToLast = v.isNull ? nil : try c.number(v, "'limitToLast'")
            }
        }
        return q
    }

    // MARK: - Rules

    private mutating func rules(_ node: SpecNode, file: SourceFile, context c: SpecContext) throws -> LoadedRules {
        switch node.kind {
        case .string(let relative):
            let dir = (file.path as NSString).deletingLastPathComponent
            let full = relative.hasPrefix("/") || dir.isEmpty ? relative : dir + "/" + relative
            return try rulesFile(Self.normalize(full), at: node, context: c)
        case .object:
            let source: SourceFile
            var origin: ((SourceRange) -> (file: String, location: SourceLocation)?)?
            if let range = node.range, file.path.hasSuffix(".json") {
                // Keep the rules at their place in the spec file (everything else blanked, line
                // breaks kept), so rule positions are positions in the spec file.
                var bytes = file.bytes
                for i in bytes.indices where !(Int(range.start)..<Int(range.end)).contains(i) && bytes[i] != UInt8(ascii: "\n") {
                    bytes[i] = UInt8(ascii: " ")
                }
                source = SourceFile(path: file.path, bytes: bytes)
            } else {
                let (text, origins) = node.prettyJSONTextWithOrigins()
                source = SourceFile(path: file.path + " (inline rules)", text: text + "\n")
                // An error points at the innermost YAML key or value whose JSON holds it.
                let specPath = file.path
                origin = { range in
                    let best = origins.filter { $0.0.start <= range.start && range.start < max($0.0.end, $0.0.start + 1) }
                        .min { $0.0.length < $1.0.length }
                    return best.map { (specPath, $0.1) }
                }
            }
            if let cached = cache[source.path] { return cached }
            let loaded = try LoadedRules.compile(source, origin: origin)
            cache[source.path] = loaded
            return loaded
        default:
            throw c.error(node, "'rules' must be a path (relative to this file) or the rules document itself")
        }
    }

    private mutating func rulesFile(_ path: String, at node: SpecNode?, context c: SpecContext) throws -> LoadedRules {
        if let cached = cache[path] { return cached }
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot read the rules file" : "no such rules file"
            if let node { throw c.error(node, "\(why): \(path)") }
            throw TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: why)
        }
        let loaded = try LoadedRules.compile(SourceFile(path: path, bytes: [UInt8](data)))
        cache[path] = loaded
        return loaded
    }

    private mutating func defaultRules(for root: SpecNode, context c: SpecContext, targaryen: Bool) throws -> LoadedRules {
        guard let path = defaultRulesPath else {
            throw c.error(root, targaryen
                ? "a targaryen-style spec needs the rules file: pass --rules FILE"
                : "no rules: give 'rules:' in the spec file or pass --rules FILE")
        }
        return try rulesFile(Self.normalize(path), at: nil, context: c)
    }

    /// Removes `.` segments and folds `dir/..`, keeping the path relative when it was.
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if segment == ".." && absolute {
                continue
            } else {
                parts.append(segment)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
