import RulesSyntax

extension SpecNode {
    /// Reads a JSON spec file (comments and trailing commas allowed). The first error the reader
    /// reports is thrown with its line and column.
    package static func readJSON(_ file: SourceFile) throws(TestSpecError) -> SpecNode {
        let result = RelaxedJSONReader.read(file)
        if let error = result.diagnostics.first(where: { $0.severity == .error }) {
            throw TestSpecError(file: file.path, location: file.location(of: error.range), message: error.message)
        }
        guard let root = result.root else {
            throw TestSpecError(file: file.path, location: SourceLocation(line: 1, column: 1), message: "the file holds no JSON value")
        }
        return convert(root, file)
    }

    /// Converts a JSON node; the reader has already bounded the nesting.
    static func convert(_ node: JSONNode, _ file: SourceFile) -> SpecNode {
        let at = file.location(of: node.range)
        let kind: Kind
        switch node.kind {
        case .null: kind = .null
        case .bool(let b): kind = .bool(b)
        case .number(let n, _): kind = .number(n)
        case .string(let s): kind = .string(s.value)
        case .array(let items): kind = .array(items.map { convert($0, file) })
        case .object(let members):
            kind = .object(members.map {
                SpecMember(key: $0.key.value, keyLocation: file.location(of: $0.key.range), value: convert($0.value, file))
            })
        }
        return SpecNode(kind, at: at, range: node.range)
    }
}
