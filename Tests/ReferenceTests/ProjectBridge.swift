import RulesRuntime

/// Converts the reference's plain values into the project's types.
enum ProjectBridge {
    static func tree(_ d: RefData?) -> DataNode? {
        guard let d else { return nil }
        return try? DataNode.fromJSON(RefInput(d).json)
    }

    static func input(_ v: RefInput) -> DataInput {
        switch v {
        case .null: .null
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .object(let m): .object(m.map { ($0.0, input($0.1)) })
        case .timestamp: .timestamp
        case .increment(let n): .increment(n)
        }
    }

    static func auth(_ v: RefInput) -> AuthValue {
        switch v {
        case .null: return .null
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .timestamp, .increment: return .null
        case .object(let m):
            var o: [String: AuthValue] = [:]
            for (k, x) in m { o[k] = auth(x) }
            return .object(o)
        }
    }

    static func primitive(_ v: RefInput) -> Primitive? {
        switch v {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        default: nil
        }
    }

    static func query(_ q: RefQuery?) -> QueryParameters {
        guard let q else { return .none }
        return QueryParameters(
            orderByKey: q.orderByKey, orderByPriority: q.orderByPriority, orderByValue: q.orderByValue, orderByChild: q.orderByChild,
            startAt: primitive(q.startAt), endAt: primitive(q.endAt), equalTo: primitive(q.equalTo),
            limitToFirst: q.limitToFirst, limitToLast: q.limitToLast)
    }

    static func operation(_ op: RefOperation) -> DatabaseOperation {
        switch op {
        case .read(let p, let q): .read(path: RefOperation.text(p), query: query(q))
        case .push(let p, let v, let key): .push(path: RefOperation.text(p), value: input(v), key: key)
        case .set(let p, let v): .set(path: RefOperation.text(p), value: input(v))
        case .update(let p, let entries): .update(path: RefOperation.text(p), values: entries.map { ($0.0.joined(separator: "/"), input($0.1)) })
        case .delete(let p): .delete(path: RefOperation.text(p))
        }
    }
}
