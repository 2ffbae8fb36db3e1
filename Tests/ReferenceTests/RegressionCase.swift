import RulesRuntime

/// Converts the project's literal-friendly types back into the reference's, so that a
/// regression case can be checked against both sides.
enum RegressionCase {
    /// The tree of a JSON document (read with the project's reader, then copied node by node).
    static func data(_ json: String) -> RefData? {
        guard let node = try? DataNode.fromJSON(json) else { return nil }
        return data(node)
    }

    static func data(_ node: DataNode?) -> RefData? {
        guard let node else { return nil }
        switch node.value {
        case .string(let s)?: return .string(s)
        case .number(let n)?: return .number(n)
        case .bool(let b)?: return .bool(b)
        case nil:
            var members: [String: RefData] = [:]
            for (k, c) in zip(node.keys, node.children) { members[k] = data(c) }
            return members.isEmpty ? nil : .object(members)
        }
    }

    static func input(_ v: DataInput) -> RefInput {
        switch v {
        case .primitive(.string(let s)): .string(s)
        case .primitive(.number(let n)): .number(n)
        case .primitive(.bool(let b)): .bool(b)
        case .object(let m): .object(m.map { ($0.0, input($0.1)) })
        case .serverValue(.timestamp): .timestamp
        case .serverValue(.increment(let n)): .increment(n)
        default: .null
        }
    }

    static func query(_ q: QueryParameters) -> RefQuery {
        func p(_ v: Primitive?) -> RefInput {
            switch v {
            case .string(let s)?: .string(s)
            case .number(let n)?: .number(n)
            case .bool(let b)?: .bool(b)
            case nil: .null
            }
        }
        return RefQuery(
            orderByKey: q.orderByKey, orderByPriority: q.orderByPriority, orderByValue: q.orderByValue, orderByChild: q.orderByChild,
            startAt: p(q.startAt), endAt: p(q.endAt), equalTo: p(q.equalTo), limitToFirst: q.limitToFirst, limitToLast: q.limitToLast)
    }

    static func auth(_ v: AuthValue) -> RefInput {
        switch v {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .object(let o): .object(o.keys.sorted().map { ($0, auth(o[$0] ?? .null)) })
        default: .null
        }
    }
}
