/// A value on the VM's stack.
///
/// Snapshots are indexes into the operation's ``SnapshotTable``, so making and passing one costs
/// no allocation.
package enum Value: Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A snapshot: index into the snapshot table.
    case snapshot(Int32)
    /// An object or array inside `auth`.
    case auth(AuthValue)
    /// What `val()` returns for a node with children: opaque, equal to nothing.
    case object

    /// The value of a stored primitive.
    @inline(__always)
    package init(_ p: Primitive) {
        switch p {
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(n)
        case .bool(let b): self = .bool(b)
        }
    }

    /// The value of an auth member: primitives become plain values.
    @inline(__always)
    package init(_ a: AuthValue) {
        switch a {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .object, .array: self = .auth(a)
        }
    }

    /// The name of the value's type, for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .snapshot: "a snapshot"
        case .auth(.array): "an array"
        case .auth: "an object"
        case .object: "an object"
        }
    }

    /// A short rendering for explanations: strings quoted, numbers as JavaScript prints them.
    package var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSNumberFormatter.string(n)
        case .string(let s): Value.quote(s)
        case .snapshot: "<snapshot>"
        case .auth(.array): "[array]"
        case .auth: "{object}"
        case .object: "{object}"
        }
    }

    static func quote(_ s: String, limit: Int = 80) -> String {
        var out = "'"
        var count = 0
        for ch in s.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            switch ch {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(ch)
            }
            count += 1
        }
        return out + "'"
    }
}
