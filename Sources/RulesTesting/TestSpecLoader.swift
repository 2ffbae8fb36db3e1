import Foundation
import RulesCoverage
import RulesRuntime
import RulesSyntax

/// Loads spec files (YAML, JSON, and targaryen-style JSON) and the rules they name.
///
/// Compiled rules are cached by normalised path, so specs sharing a rules file share one
/// ``LoadedRules`` (and one coverage record).
package struct TestSpecLoader {
    /// The rules used by specs without a `rules:` entry, and by targaryen-style specs (`--rules`).
    package var defaultRulesPath: String?
    private var cache: [String: LoadedRules] = [:]

    /// Creates a loader.
    package init(defaultRulesPath: String? = nil) {
        self.defaultRulesPath = defaultRulesPath
    }

    /// Every rules file loaded so far, by path.
    package var loadedRules: [LoadedRules] { cache.keys.sorted().compactMap { cache[$0] } }

    static let stepKeys: Set<String> = [
        "as", "read", "query", "set", "value", "update", "values", "delete", "push", "priority", "now", "expect",
        "expectData", "expectValue", "expectRule", "expectReason",
    ]
    static let operationKeys = ["read", "set", "update", "delete", "push"]
    static let testKeys: Set<String> = ["name", "data", "seed", "now", "steps", "skip", "only"]
    /// A test written as its single step has the keys of both.
    static let testOrStepKeys = testKeys.union(stepKeys)
    static let fileKeys: Set<String> = ["rules", "now", "data", "auth", "tests", "include"]
    static let includeKeys: Set<String> = ["now", "data", "auth"]

    // MARK: - Files

    /// Expands paths: files as given, directories searched recursively for `*.test.yaml`,
    /// `*.test.yml` and `*.test.json` (sorted). A missing path, or a directory without specs, is
    /// an error.
    package static func specFiles(in paths: [String]) throws(TestSpecErrors) -> [String] {
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
    package static func isSpecFile(_ name: String) -> Bool {
        name.hasSuffix(".test.yaml") || name.hasSuffix(".test.yml") || name.hasSuffix(".test.json")
    }

    /// Reads and loads a spec file.
    package mutating func load(path: String) throws(TestSpecErrors) -> TestSpec {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestSpecErrors([TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "cannot read the file")])
        }
        return try load(file: SourceFile(path: path, bytes: [UInt8](data)))
    }

    /// Loads a spec from its text: JSON when the path ends in `.json`, YAML otherwise.
    package mutating func load(file: SourceFile) throws(TestSpecErrors) -> TestSpec {
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
        // Every mistake in the file is reported, not only the first: each part is read on its
        // own and its errors collected.
        var errors: [TestSpecError] = []
        func collect<T>(_ body: () throws -> T) -> T? {
            do { return try body() } catch let e as TestSpecError {
                errors.append(e)
            } catch let e as TestSpecErrors {
                errors += e.errors
            } catch {
                errors.append(c.error(root, "\(error)"))
            }
            return nil
        }
        for m in members where !Self.fileKeys.contains(m.key) {
            errors.append(c.error(at: m.keyLocation, "unknown key '\(m.key)' in a spec file (expected one of: \(Self.fileKeys.sorted().joined(separator: ", ")))"))
        }
        let rules: LoadedRules? = collect {
            if let r = root["rules"] { return try self.rules(r, file: file, context: c) }
            return try defaultRules(for: root, context: c, targaryen: false)
        }
        // Included files give `now`, `data` and `auth` that the spec's own keys override.
        var now: Double?
        var data: DataInput?
        var identities: [String: AuthValue] = [:]
        if let include = root["include"] {
            let paths: [SpecNode] = include.members == nil && include.string == nil ? (include.items ?? [include]) : [include]
            for p in paths {
                _ = collect {
                    let included = try self.included(p, from: file, context: c)
                    let ic = SpecContext(path: included.path)
                    for m in try ic.object(included.root, "an included file") where !Self.includeKeys.contains(m.key) {
                        throw ic.error(at: m.keyLocation, "unknown key '\(m.key)' in an included file (expected one of: \(Self.includeKeys.sorted().joined(separator: ", ")))")
                    }
                    if let n = included.root["now"] { now = try ic.number(n, "'now'") }
                    if let d = included.root["data"] { data = try self.storedData(d, at: .root, from: included.path, context: ic) }
                    if let a = included.root["auth"] { identities.merge(try self.identities(a, from: included.path, context: ic)) { _, new in new } }
                }
            }
        }
        if let n = root["now"] { now = collect { try c.number(n, "'now'") } ?? now }
        if let d = root["data"] { data = collect { try self.storedData(d, at: .root, from: file.path, context: c) } ?? data }
        if let a = root["auth"], let own = collect({ try self.identities(a, from: file.path, context: c) }) {
            identities.merge(own) { _, new in new }
        }
        var tests: [TestCase] = []
        if let testsNode = root["tests"] {
            if case .array(let items) = testsNode.kind {
                for (i, item) in items.enumerated() {
                    if let t = collect({ try test(item, number: i + 1, identities: identities, specPath: file.path, context: c) }) { tests.append(t) }
                }
            } else {
                errors.append(c.error(testsNode, "'tests' must be a list, not \(testsNode.kindDescription)"))
            }
        } else {
            errors.append(c.error(root, "missing 'tests' (a list of tests)"))
        }
        if !errors.isEmpty { throw TestSpecErrors(errors) }
        guard let rules else { throw TestSpecErrors([c.error(root, "no rules")]) }
        return TestSpec(path: file.path, rules: rules, now: now, data: data, tests: tests)
    }

    // MARK: - Files a spec refers to

    /// The path of a value written as `{file: PATH}` (relative to the spec file), or nil.
    static func fileReference(_ node: SpecNode) -> String? {
        guard let m = node.members, m.count == 1, m[0].key == "file", let path = m[0].value.string else { return nil }
        return path
    }

    /// Reads a JSON (`.json`) or YAML file named relative to the file `from`.
    private func readNode(_ relative: String, from: String, at node: SpecNode, context c: SpecContext) throws -> (path: String, root: SpecNode) {
        let dir = (from as NSString).deletingLastPathComponent
        let path = LexicalPath.normalize(relative.hasPrefix("/") || dir.isEmpty ? relative : dir + "/" + relative)
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw c.error(node, FileManager.default.fileExists(atPath: path) ? "cannot read \(path)" : "no such file: \(path)")
        }
        if path.hasSuffix(".json") { return (path, try SpecNode.readJSON(SourceFile(path: path, bytes: [UInt8](bytes)))) }
        guard let text = String(validating: [UInt8](bytes), as: UTF8.self) else {
            throw TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "the file is not valid UTF-8")
        }
        return (path, try SpecNode.readYAML(text, path: path))
    }

    /// An `include:` entry: the file it names.
    private func included(_ node: SpecNode, from file: SourceFile, context c: SpecContext) throws -> (path: String, root: SpecNode) {
        guard let relative = node.string else { throw c.error(node, "'include' must be a file name or a list of them") }
        return try readNode(relative, from: file.path, at: node, context: c)
    }

    /// A stored tree written inline or as `{file: seed.json}`.
    private func storedData(_ node: SpecNode, at path: DataPath, from: String, context c: SpecContext) throws -> DataInput {
        guard let relative = Self.fileReference(node) else { return try c.storedInput(node, at: path) }
        let loaded = try readNode(relative, from: from, at: node, context: c)
        return try SpecContext(path: loaded.path).storedInput(loaded.root, at: path)
    }

    /// The named identities of `auth`, written inline or as `{file: users.yaml}`.
    private func identities(_ node: SpecNode, from: String, context c: SpecContext) throws -> [String: AuthValue] {
        var source = node, sc = c
        if let relative = Self.fileReference(node) {
            let loaded = try readNode(relative, from: from, at: node, context: c)
            source = loaded.root
            sc = SpecContext(path: loaded.path)
        }
        var out: [String: AuthValue] = [:]
        for m in try sc.object(source, "'auth'") { out[m.key] = try sc.identity(m.value) }
        return out
    }

    private func test(_ node: SpecNode, number: Int, identities: [String: AuthValue], specPath: String, context c: SpecContext) throws -> TestCase {
        let members = try c.object(node, "a test")
        try c.checkKeys(members, allowed: Self.testOrStepKeys, in: "a test")
        let name = try node["name"].map { (n) throws(TestSpecError) in try c.string(n, "'name'") } ?? "test \(number)"
        let data = try node["data"].map { (n) throws in try storedData(n, at: .root, from: specPath, context: c) }
        let skip = try node["skip"].map { (n) throws(TestSpecError) in try c.bool(n, "'skip'") } ?? false
        let only = try node["only"].map { (n) throws(TestSpecError) in try c.bool(n, "'only'") } ?? false
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
        var test = TestCase(name: name, location: node.location, data: data, seed: seed, now: now, steps: steps)
        test.skip = skip
        test.only = only
        return test
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
        var step = TestStep(auth: auth, caller: caller, operation: operation, now: now, expectAllow: expectAllow, location: node.location)
        if let e = node["expectData"] {
            for m in try c.object(e, "'expectData'") {
                let path: DataPath
                do { path = try DataPath(validating: m.key) } catch { throw c.error(at: m.keyLocation, "invalid path in 'expectData': \(error.message)") }
                step.expectData.append((path, try c.dataInput(m.value)))
            }
        }
        if let e = node["expectValue"] {
            guard op == "read" else { throw c.error(e, "'expectValue' goes with 'read' (for a write, use expectData)") }
            guard expectAllow else { throw c.error(e, "'expectValue' needs 'expect: allow': a denied read returns nothing") }
            step.expectValue = try c.dataInput(e)
        }
        if let e = node["expectRule"] {
            step.expectRule = try Self.rulePath(e, context: c)
        }
        if let e = node["expectReason"] {
            guard !expectAllow else { throw c.error(e, "'expectReason' needs 'expect: deny': only a denial has a reason") }
            step.expectReason = try c.string(e, "'expectReason'")
        }
        return step
    }

    /// `expectRule` as a rule path: `/posts/$postId/.write`, or `{path: /posts/$postId, kind: .write}`.
    static func rulePath(_ node: SpecNode, context c: SpecContext) throws(TestSpecError) -> String {
        if let s = node.string {
            guard s.hasPrefix("/"), [".read", ".write", ".validate"].contains(where: { s.hasSuffix("/" + $0) }) else {
                throw c.error(node, "'expectRule' must be a rule path such as /posts/$postId/.write, or {path, kind}")
            }
            return s
        }
        let members = try c.object(node, "'expectRule'")
        try c.checkKeys(members, allowed: ["path", "kind"], in: "'expectRule'")
        guard let pathNode = node["path"], let kindNode = node["kind"] else { throw c.error(node, "'expectRule' needs 'path' and 'kind'") }
        let path = try c.string(pathNode, "'path'")
        var kind = try c.string(kindNode, "'kind'")
        if !kind.hasPrefix(".") { kind = "." + kind }
        guard [".read", ".write", ".validate"].contains(kind) else { throw c.error(kindNode, "'kind' must be .read, .write or .validate") }
        guard path.hasPrefix("/") else { throw c.error(pathNode, "'path' must start with /") }
        return (path.hasSuffix("/") ? path : path + "/") + kind
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
            return try rulesFile(LexicalPath.normalize(full), at: node, context: c)
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
        return try rulesFile(LexicalPath.normalize(path), at: nil, context: c)
    }
}
