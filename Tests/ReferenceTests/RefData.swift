/// The reference's own data model: a plain recursive value, with no sharing, no priorities and
/// no key ordering. `nil` (as `RefData?`) is "no data"; an object is never empty.
indirect enum RefData: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: RefData])

    /// Resolves server values against the old data at the same location (spec §8.6, decision
    /// 7.2): a timestamp is `now`; an increment adds to a stored number, else it is `n`.
    static func resolved(_ input: RefInput, old: RefData?, now: Double) -> RefInput {
        switch input {
        case .timestamp: return .number(now)
        case .increment(let n):
            if case .number(let x)? = old { return .number(x + n) }
            return .number(n)
        case .object(let m): return .object(m.map { ($0.0, resolved($0.1, old: old?.child($0.0), now: now)) })
        default: return input
        }
    }

    /// Builds a node from a written value, pruning nulls and empty objects (spec §8.3 step 1).
    /// Server values must be resolved first.
    static func pruned(_ input: RefInput) -> RefData? {
        switch input {
        case .null, .timestamp, .increment: return nil
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .object(let members):
            var out: [String: RefData] = [:]
            for (k, v) in members {
                if let d = pruned(v) { out[k] = d } else { out[k] = nil }
            }
            return out.isEmpty ? nil : .object(out)
        }
    }

    func child(_ key: String) -> RefData? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    static func at(_ root: RefData?, _ path: [String]) -> RefData? {
        var node = root
        for key in path { node = node?.child(key) }
        return node
    }

    /// `root` with the location at `path` replaced by `value`; ancestors left empty disappear.
    static func replacing(_ root: RefData?, at path: [String], with value: RefData?) -> RefData? {
        // Deleting what is not there changes nothing, even below a leaf: the leaf stays
        // (decision 7.8), as a client SDK's leaf node ignores an empty child update.
        if value == nil && at(root, path) == nil { return root }
        guard let key = path.first else { return value }
        var members: [String: RefData] = [:]
        if case .object(let o)? = root { members = o }
        members[key] = replacing(members[key], at: Array(path.dropFirst()), with: value)
        return members.isEmpty ? nil : .object(members)
    }

    var description: String { RefInput(self).json }
}

/// A value as a client writes it (it may hold nulls, empty objects and server values), and also
/// the JSON shape of `auth` values and query bounds.
indirect enum RefInput: Equatable, Sendable {
    case null
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([(String, RefInput)])
    /// `{".sv": "timestamp"}`.
    case timestamp
    /// `{".sv": {"increment": n}}`.
    case increment(Double)

    init(_ d: RefData?) {
        switch d {
        case nil: self = .null
        case .string(let s)?: self = .string(s)
        case .number(let n)?: self = .number(n)
        case .bool(let b)?: self = .bool(b)
        case .object(let o)?: self = .object(o.keys.sorted().map { ($0, RefInput(o[$0])) })
        }
    }

    static func == (a: RefInput, b: RefInput) -> Bool { a.json == b.json }

    /// JSON text (numbers in Swift's shortest form, which JSON readers accept).
    var json: String {
        switch self {
        case .null: return "null"
        case .string(let s): return RefInput.quote(s)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case .bool(let b): return b ? "true" : "false"
        case .object(let m): return "{" + m.map { RefInput.quote($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
        case .timestamp: return "{\".sv\": \"timestamp\"}"
        case .increment(let n): return "{\".sv\": {\"increment\": \(RefNumberText.js(n))}}"
        }
    }

    /// A Swift literal for a regression test (`DataInput` and `AuthValue` both take it).
    var swiftLiteral: String {
        switch self {
        case .null: return "nil"
        case .string(let s): return RefInput.quote(s)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case .bool(let b): return b ? "true" : "false"
        case .object(let m): return m.isEmpty ? "[:]" : "[" + m.map { RefInput.quote($0.0) + ": " + $0.1.swiftLiteral }.joined(separator: ", ") + "]"
        case .timestamp: return ".timestamp"
        case .increment(let n): return ".increment(\(RefNumberText.js(n)))"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
