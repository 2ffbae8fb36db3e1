import RulesRuntime
import RulesSyntax

/// Reads values out of one spec file's nodes, turning mistakes into errors at the node's position.
struct SpecContext {
    /// The spec file's path (for messages).
    let path: String

    func error(_ node: SpecNode, _ message: String) -> TestSpecError {
        TestSpecError(file: path, location: node.location, message: message)
    }

    func error(at location: SourceLocation, _ message: String) -> TestSpecError {
        TestSpecError(file: path, location: location, message: message)
    }

    func object(_ node: SpecNode, _ what: String) throws(TestSpecError) -> [SpecMember] {
        guard let m = node.members else { throw error(node, "\(what) must be an object, not \(node.kindDescription)") }
        return m
    }

    func string(_ node: SpecNode, _ what: String) throws(TestSpecError) -> String {
        guard let s = node.string else { throw error(node, "\(what) must be a string, not \(node.kindDescription)") }
        return s
    }

    func number(_ node: SpecNode, _ what: String) throws(TestSpecError) -> Double {
        guard let n = node.number, n.isFinite else { throw error(node, "\(what) must be a finite number, not \(node.kindDescription)") }
        return n
    }

    func bool(_ node: SpecNode, _ what: String) throws(TestSpecError) -> Bool {
        guard case .bool(let b) = node.kind else { throw error(node, "\(what) must be true or false, not \(node.kindDescription)") }
        return b
    }

    /// Rejects members not in `allowed`.
    func checkKeys(_ members: [SpecMember], allowed: Set<String>, in what: String) throws(TestSpecError) {
        // A few allowed keys are compared one by one, cheaper than hashing each member's key.
        let scan = allowed.count <= 8
        for m in members where !(scan ? allowed.contains { $0 == m.key } : allowed.contains(m.key)) {
            let known = allowed.sorted().joined(separator: ", ")
            throw error(at: m.keyLocation, "unknown key '\(m.key)' in \(what) (expected one of: \(known))")
        }
    }

    // MARK: - Values

    /// A value as a client sends it: arrays become keyed objects, `{".sv": …}` is a server value,
    /// `{".value": v, ".priority": p}` and a `".priority"` member carry priorities. Keys are not
    /// checked here: the engine refuses a write with an invalid key (a denial with its reason).
    func dataInput(_ node: SpecNode) throws(TestSpecError) -> DataInput {
        switch node.kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n):
            guard n.isFinite else { throw error(node, "numbers must be finite") }
            return .number(n)
        case .string(let s): return .string(s)
        case .array(let items):
            var members: [(String, DataInput)] = []
            for (i, item) in items.enumerated() { members.append((String(i), try dataInput(item))) }
            return .object(members)
        case .object(let members):
            if let sv = members.first(where: { $0.key == ".sv" }) {
                guard members.count == 1 else { throw error(sv.value, "'.sv' cannot stand next to other members") }
                return .serverValue(try serverValue(sv.value))
            }
            let priority = try members.first { $0.key == ".priority" }.map { (m) throws(TestSpecError) in try dataInput(m.value) }
            if let value = members.first(where: { $0.key == ".value" }) {
                if let other = members.first(where: { $0.key != ".value" && $0.key != ".priority" }) {
                    throw error(at: other.keyLocation, "'.value' cannot stand next to other members than '.priority' (found '\(other.key)')")
                }
                let v = try dataInput(value.value)
                return priority.map { .withPriority(v, priority: $0) } ?? v
            }
            var out: [(String, DataInput)] = []
            for m in members where m.key != ".priority" { out.append((m.key, try dataInput(m.value))) }
            return priority.map { .withPriority(.object(out), priority: $0) } ?? .object(out)
        }
    }

    private func serverValue(_ node: SpecNode) throws(TestSpecError) -> ServerValue {
        if node.string == "timestamp" { return .timestamp }
        if let m = node.members, m.count == 1, m[0].key == "increment" {
            return .increment(try number(m[0].value, "an increment"))
        }
        throw error(node, "unknown server value: expected \"timestamp\" or {increment: n}")
    }

    /// A stored tree (data, seeds): a value whose keys and sizes the database accepts.
    func storedInput(_ node: SpecNode, at path: DataPath) throws(TestSpecError) -> DataInput {
        let input = try dataInput(node)
        do { try input.validate(at: path) } catch { throw self.error(node, error.message) }
        return input
    }

    /// A JSON-like value for `auth` (objects, arrays and primitives as they are).
    func authValue(_ node: SpecNode) -> AuthValue {
        switch node.kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(authValue))
        case .object(let members):
            var o: [String: AuthValue] = [:]
            for m in members { o[m.key] = authValue(m.value) }
            return .object(o)
        }
    }

    /// An identity `{uid, provider?, token?}` (or null: unauthenticated).
    func identity(_ node: SpecNode) throws(TestSpecError) -> AuthValue {
        if node.isNull { return .null }
        let members = try object(node, "an identity")
        try checkKeys(members, allowed: ["uid", "provider", "token"], in: "an identity")
        guard let uidNode = node["uid"] else { throw error(node, "an identity needs a 'uid'") }
        let uid = try string(uidNode, "'uid'")
        let provider = try node["provider"].map { (n) throws(TestSpecError) in try string(n, "'provider'") } ?? "custom"
        var claims: [String: AuthValue] = [:]
        if let token = node["token"] {
            for m in try object(token, "'token'") { claims[m.key] = authValue(m.value) }
        }
        return .user(uid: uid, provider: provider, claims: claims)
    }

    /// A primitive for a query bound (`startAt`, `endAt`, `equalTo`); null means absent.
    func queryBound(_ node: SpecNode, _ what: String) throws(TestSpecError) -> Primitive? {
        switch node.kind {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .number(let n) where n.isFinite: return .number(n)
        case .string(let s): return .string(s)
        default: throw error(node, "\(what) must be a string, number, boolean or null")
        }
    }
}
