import DatabaseRules

/// A rules file as strict JSON (comments dropped, multi-line strings joined, trailing commas
/// gone): what `GET /.settings/rules.json?format=strict` answers.
enum RulesSourceJSON {
    static func strict(_ source: String) -> String? {
        let result = RelaxedJSONReader.read(SourceFile(path: "database.rules.json", text: source))
        guard let root = result.root else { return nil }
        return write(root)
    }

    private static func write(_ node: JSONNode) -> String {
        switch node.kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d, _): return JSONText.number(d)
        case .string(let s): return JSONText.quote(s.value)
        case .array(let items): return "[" + items.map(write).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.quote($0.key.value) + ":" + write($0.value) }.joined(separator: ",") + "}"
        }
    }
}
