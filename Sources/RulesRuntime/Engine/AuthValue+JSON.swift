import RulesSyntax

extension AuthValue {
    /// The auth value of a JSON node (arrays stay arrays: token claims such as
    /// `firebase.identities` hold arrays).
    package init(json node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n, _): self = .number(n)
        case .string(let s): self = .string(s.value)
        case .array(let items): self = .array(items.map(AuthValue.init(json:)))
        case .object(let members):
            var o: [String: AuthValue] = [:]
            for m in members { o[m.key.value] = AuthValue(json: m.value) }
            self = .object(o)
        }
    }

    /// Parses JSON text into an auth value; nil when the text is not valid JSON.
    package init?(jsonText: String) {
        let result = RelaxedJSONReader.read(SourceFile(path: "<auth>", text: jsonText))
        guard let root = result.root, !result.diagnostics.containsErrors else { return nil }
        self.init(json: root)
    }
}
