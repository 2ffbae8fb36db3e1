import RulesSyntax

/// A value of a spec file, YAML or JSON alike, with the line and column it starts at.
package struct SpecNode: Sendable {
    /// The kinds of value.
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([SpecNode])
        case object([SpecMember])
    }

    /// What the value is.
    package var kind: Kind
    /// Where it starts (1-based line and column).
    package var location: SourceLocation
    /// Its bytes in the file, when known (JSON files), for slicing inline rules out of the text.
    package var range: SourceRange?

    /// Creates a node.
    package init(_ kind: Kind, at location: SourceLocation, range: SourceRange? = nil) {
        self.kind = kind
        self.location = location
        self.range = range
    }

    /// The members when this is an object.
    package var members: [SpecMember]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    /// The items when this is a list.
    package var items: [SpecNode]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// The string when this is a string.
    package var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The number when this is a number.
    package var number: Double? {
        if case .number(let n) = kind { return n }
        return nil
    }

    /// True for null.
    package var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The member with this key, if this is an object that has it.
    package subscript(key: String) -> SpecNode? {
        members?.first { $0.key == key }?.value
    }

    /// A short noun for messages ("a string", "an object").
    package var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The value as compact JSON text (numbers in their shortest round-trip form).
    package var jsonText: String {
        var out = ""
        writeJSON(to: &out, indent: nil, level: 0)
        return out
    }

    /// The value as JSON text with one member per line.
    package var prettyJSONText: String {
        var out = ""
        writeJSON(to: &out, indent: "  ", level: 0)
        return out
    }

    /// The value as JSON text with one member per line, and where each value and key came from:
    /// (byte range in the text, location in the spec file), innermost last.
    func prettyJSONTextWithOrigins() -> (text: String, origins: [(SourceRange, SourceLocation)]) {
        var out = ""
        var origins: [(SourceRange, SourceLocation)] = []
        writeJSON(to: &out, indent: "  ", level: 0, origins: &origins)
        return (out, origins)
    }

    private func writeJSON(to out: inout String, indent: String?, level: Int) {
        var unused: [(SourceRange, SourceLocation)] = []
        writeJSON(to: &out, indent: indent, level: level, origins: &unused)
    }

    private func writeJSON(to out: inout String, indent: String?, level: Int, origins: inout [(SourceRange, SourceLocation)]) {
        let start = out.utf8.count
        defer { origins.append((SourceRange(start, out.utf8.count), location)) }
        let newline = indent == nil ? "" : "\n"
        let pad = { (n: Int) in String(repeating: indent ?? "", count: n) }
        switch kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONText.double(n).rendered()
        case .string(let s): out += JSONText.quote(s)
        case .array(let items):
            out += "[" + newline
            for (i, item) in items.enumerated() {
                out += pad(level + 1)
                item.writeJSON(to: &out, indent: indent, level: level + 1, origins: &origins)
                out += (i < items.count - 1 ? "," : "") + newline
            }
            out += pad(level) + "]"
        case .object(let members):
            out += "{" + newline
            for (i, m) in members.enumerated() {
                out += pad(level + 1)
                let keyStart = out.utf8.count
                out += JSONText.quote(m.key)
                origins.append((SourceRange(keyStart, out.utf8.count), m.keyLocation))
                out += indent == nil ? ":" : ": "
                m.value.writeJSON(to: &out, indent: indent, level: level + 1, origins: &origins)
                out += (i < members.count - 1 ? "," : "") + newline
            }
            out += pad(level) + "}"
        }
    }
}

/// One `key: value` pair of a spec object.
package struct SpecMember: Sendable {
    /// The key.
    package var key: String
    /// Where the key starts.
    package var keyLocation: SourceLocation
    /// The value.
    package var value: SpecNode

    /// Creates a member.
    package init(key: String, keyLocation: SourceLocation, value: SpecNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}
