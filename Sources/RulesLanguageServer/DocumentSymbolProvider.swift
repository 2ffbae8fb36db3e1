import RulesSyntax

/// `textDocument/documentSymbol`: the rule tree as an outline. Each location is a symbol (a
/// `$wildcard` a variable), with its rules as children whose detail is the rule's text.
package enum DocumentSymbolProvider {
    /// LSP's `SymbolKind`s used here.
    enum Kind: Int {
        case module = 2, namespace = 3, property = 7, field = 8, variable = 13, object = 19
    }

    package static func symbols(_ analysis: DocumentAnalysis) -> [JSONText] {
        guard let members = analysis.json?.members else { return [] }
        return members.map { symbol($0, analysis: analysis, depth: 0) }
    }

    private static func symbol(_ m: JSONMember, analysis: DocumentAnalysis, depth: Int) -> JSONText {
        let key = m.key.value
        let kind: Kind
        var detail: String?
        if key.hasPrefix(".") {
            kind = key == ".indexOn" ? .field : .property
            detail = analysis.file.text(of: m.value.range).split(separator: "\n").first.map(String.init)
        } else if key.hasPrefix("$") {
            kind = .variable
        } else {
            kind = depth == 0 ? .namespace : .object
        }
        let range = analysis.positions.range(m.key.range.union(m.value.range))
        var out: [(String, JSONText)] = [
            ("name", .string(key.isEmpty ? "\"\"" : key)), ("kind", .int(kind.rawValue)),
            ("range", range.json), ("selectionRange", analysis.positions.range(m.key.range).json),
        ]
        if let detail { out.append(("detail", .string(detail))) }
        if let children = m.value.members, !key.hasPrefix(".") {
            out.append(("children", .array(children.map { symbol($0, analysis: analysis, depth: depth + 1) })))
        }
        return .object(out)
    }
}
