import RulesSyntax

/// Reading the protocol's JSON: members by name, and the few scalar kinds messages use.
extension JSONNode {
    /// The value of a member, nil when absent or when this is not an object.
    subscript(_ key: String) -> JSONNode? {
        members?.first { $0.key.value == key }?.value
    }

    /// The value at a dotted path of member names (`"position.line"`).
    func at(_ path: String) -> JSONNode? {
        var node: JSONNode? = self
        for part in path.split(separator: ".") { node = node?[String(part)] }
        return node
    }

    /// The string value.
    var stringValue: String? { string?.value }

    /// The integer value of a whole number.
    var intValue: Int? {
        if case .number(let d, _) = kind, d.rounded() == d, abs(d) < 9.0e15 { return Int(d) }
        return nil
    }

    /// The boolean value.
    var boolValue: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    /// The elements of an array.
    var arrayValue: [JSONNode]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// The same value to write back (a request id, echoed in its response).
    var echoed: JSONText {
        switch kind {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let d, _): intValue.map(JSONText.int) ?? .double(d)
        case .string(let s): .string(s.value)
        case .array(let items): .array(items.map(\.echoed))
        case .object(let members): .object(members.map { ($0.key.value, $0.value.echoed) })
        }
    }
}
