/// A value read back from the database, shaped as JSON: what a client's `val()` returns.
///
/// Objects whose keys are all canonical non-negative integers (`"0"`, `"1"`, … without leading
/// zeros) and whose largest key is below twice their count read as arrays, with `null` in the
/// holes, as the server and the SDKs present them. Priorities are not part of a value.
public enum DataValue: Sendable, Hashable, CustomStringConvertible {
    /// Nothing stored.
    case null
    /// A boolean.
    case bool(Bool)
    /// A number (every number is a double).
    case number(Double)
    /// A string.
    case string(String)
    /// An array (an object with integer keys; see the type's description).
    case array([DataValue])
    /// An object.
    case object([String: DataValue])

    /// The value of a node (``DataValue/null`` for nil).
    public init(_ node: DataNode?) {
        guard let node else { self = .null; return }
        if let value = node.value {
            switch value {
            case .bool(let b): self = .bool(b)
            case .number(let d): self = .number(d)
            case .string(let s): self = .string(s)
            }
            return
        }
        if let length = node.arrayLength {
            var items = [DataValue](repeating: .null, count: length)
            node.forEachChild { key, child in items[Int(key)!] = DataValue(child) }
            self = .array(items)
        } else {
            var members: [String: DataValue] = [:]
            node.forEachChild { key, child in members[key] = DataValue(child) }
            self = .object(members)
        }
    }

    /// Compact JSON text (object members in `KeyOrder`).
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return JSONText.number(d)
        case .string(let s): return JSONText.quote(s)
        case .array(let items): return "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            let keys = members.keys.sorted(by: KeyOrder.less)
            return "{" + keys.map { JSONText.quote($0) + ":" + members[$0]!.description }.joined(separator: ",") + "}"
        }
    }
}
