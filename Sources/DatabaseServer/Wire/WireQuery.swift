import DatabaseRules

/// A query as the SDKs send it in a listen or get (`q`): `i` the index (`.key`, `.value`, a child
/// path; absent for priority order), `sp`/`sn`/`sin` the start value, key and inclusiveness,
/// `ep`/`en`/`ein` the end, `l` the limit and `vf` its side (`l` first, `r` last).
enum WireQuery {
    static func parse(_ node: JSONNode?) throws(ServerError) -> Query {
        guard let node else { return Query() }
        guard let members = node.members else { throw ServerError(.badRequest, "q must be an object") }
        var query = Query()
        var fields: [String: JSONNode] = [:]
        for m in members { fields[m.key.value] = m.value }
        if fields.isEmpty { return query }
        switch fields["i"].flatMap(\.string)?.value {
        case nil: query.order = .priority
        case ".key": query.order = .key
        case ".value": query.order = .value
        case let path?:
            guard (try? DataPath(validating: path)) != nil else { throw ServerError(.badRequest, "Invalid index '\(path)'") }
            query.order = .child(path.split(separator: "/").map(String.init))
        }
        if let sp = fields["sp"] {
            query.startAt = try bound(sp)
            query.startName = name(fields["sn"], default: .min)
            if case .bool(false)? = fields["sin"]?.kind { query.startInclusive = false }
        }
        if let ep = fields["ep"] {
            query.endAt = try bound(ep)
            query.endName = name(fields["en"], default: .max)
            if case .bool(false)? = fields["ein"]?.kind { query.endInclusive = false }
        }
        if let l = fields["l"] {
            guard case .number(let n, _) = l.kind, n >= 0, n == n.rounded(), n < 1e9 else {
                throw ServerError(.badRequest, "l must be a whole number")
            }
            let vf = fields["vf"].flatMap(\.string)?.value ?? (query.startAt != nil ? "l" : "r")
            if vf == "r" { query.limitToLast = Int(n) } else { query.limitToFirst = Int(n) }
        }
        return query
    }

    private static func bound(_ node: JSONNode) throws(ServerError) -> Query.Bound {
        switch node.kind {
        case .null: return .null
        case .bool(let b): return .value(.bool(b))
        case .number(let d, _): return .value(.number(d))
        case .string(let s): return .value(.string(s.value))
        default: throw ServerError(.badRequest, "A query bound must be a string, number, boolean or null")
        }
    }

    private static func name(_ node: JSONNode?, default value: Query.Name) -> Query.Name {
        guard let text = node?.string?.value else { return value }
        switch text {
        case "[MIN_NAME]": return .min
        case "[MAX_NAME]": return .max
        default: return .key(text)
        }
    }
}
