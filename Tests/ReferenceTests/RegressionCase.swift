import Foundation
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

    /// The rules tree of a rules document in plain JSON (a boolean rule becomes its text).
    static func rules(_ json: String) -> RefRuleNode? {
        guard let document = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let rules = document["rules"] as? [String: Any] else { return nil }
        return ruleNode(rules)
    }

    static func ruleNode(_ members: [String: Any]) -> RefRuleNode {
        func text(_ v: Any?) -> String? { (v as? String) ?? (v as? Bool).map { $0 ? "true" : "false" } }
        var node = RefRuleNode(read: text(members[".read"]), write: text(members[".write"]), validate: text(members[".validate"]))
        for (key, value) in members.sorted(by: { $0.key < $1.key }) where !key.hasPrefix(".") {
            guard let child = value as? [String: Any] else { continue }
            if key.hasPrefix("$") { node.wildcard = (key, ruleNode(child)) } else { node.children.append((key, ruleNode(child))) }
        }
        return node
    }

    static func operation(_ op: DatabaseOperation) -> RefOperation {
        func keys(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }
        switch op {
        case .read(let p, let q): return .read(keys(p), q == .none ? nil : query(q))
        case .set(let p, let v): return .set(keys(p), input(v))
        case .update(let p, let values): return .update(keys(p), values.map { (keys($0.0), input($0.1)) })
        case .delete(let p): return .delete(keys(p))
        case .push(let p, let v, let key): return .push(keys(p), input(v), key)
        }
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
