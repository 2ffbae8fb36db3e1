import RulesSyntax
import Yams

extension SpecNode {
    /// The YAML 1.2 core schema: only `true`/`false` are booleans (`no` stays a string), `1e12` is
    /// a number, `0o17`/`0x1F` are integers, and `~`, `null` and the empty scalar are null.
    static func coreSchemaResolver() throws -> Resolver {
        try Resolver.basic
            .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
            .appending(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
            .appending(.float, "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$")
            .appending(.null, "^(?:~|null|Null|NULL|)$")
    }

    /// Reads a YAML document. Errors carry the line and column Yams reports.
    package static func readYAML(_ text: String, path: String) throws(TestSpecError) -> SpecNode {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text, try coreSchemaResolver())
        } catch let error as YamlError {
            throw yamlError(error, path: path)
        } catch {
            throw TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "invalid YAML: \(error)")
        }
        guard let node else {
            throw TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "the file is empty")
        }
        var budget = ExpansionBudget()
        return try convert(node, path: path, depth: 0, budget: &budget)
    }

    private static func location(_ mark: Mark?) -> SourceLocation {
        SourceLocation(line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    private static func yamlError(_ error: YamlError, path: String) -> TestSpecError {
        func make(_ mark: Mark, _ problem: String, _ context: YamlError.Context?) -> TestSpecError {
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at \(context.mark.line):\(context.mark.column))" }
            return TestSpecError(file: path, location: location(mark), message: message)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _): return make(mark, problem, context)
        case .parser(let context, let problem, let mark, _): return make(mark, problem, context)
        case .composer(let context, let problem, let mark, _): return make(mark, problem, context)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return TestSpecError(file: path, location: location(context.mark), message: "duplicate key \(keys) in a mapping")
        case .reader(let problem, _, _, _):
            return TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "cannot read the file: \(problem)")
        default:
            return TestSpecError(file: path, location: SourceLocation(line: 1, column: 1), message: "invalid YAML: \(error)")
        }
    }

    /// Deep enough for any spec; deeper input is an error rather than a stack overflow.
    static let maxDepth = 200

    /// The most values (scalars, keys, lists and mappings, each counted once for every place it
    /// appears) a YAML document may expand to, its aliases (`*a`) and merge keys (`<<: *a`)
    /// repeated in full. A spec has thousands; a document of a few lines whose aliases name
    /// aliases ("billion laughs") would otherwise expand to gigabytes.
    static let maxExpandedValues = 1_000_000
    /// The most bytes of text (scalars and keys) a YAML document may expand to.
    static let maxExpandedBytes = 64 * 1024 * 1024

    /// What is left of a document's expansion budget.
    struct ExpansionBudget {
        var values = SpecNode.maxExpandedValues
        var bytes = SpecNode.maxExpandedBytes

        /// Counts one value of `bytes` bytes of text; throws at `at` once the budget is spent.
        mutating func spend(_ textBytes: Int, path: String, at: SourceLocation) throws(TestSpecError) {
            values -= 1
            bytes -= textBytes
            guard values < 0 || bytes < 0 else { return }
            throw TestSpecError(
                file: path, location: at,
                message: "the document expands to more than \(SpecNode.maxExpandedValues) values or \(SpecNode.maxExpandedBytes / (1024 * 1024)) MB of text (YAML aliases such as *a and merge keys such as <<: *a repeat what they name in full); write the values out, or name fewer")
        }
    }

    private static func convert(_ node: Node, path: String, depth: Int, budget: inout ExpansionBudget) throws(TestSpecError) -> SpecNode {
        let at = location(node.mark)
        guard depth < maxDepth else { throw TestSpecError(file: path, location: at, message: "the document nests too deeply") }
        switch node {
        case .scalar(let scalar):
            try budget.spend(scalar.string.utf8.count, path: path, at: at)
            return SpecNode(try scalarKind(scalar, tag: node.tag.description, path: path, at: at), at: at)
        case .sequence(let sequence):
            try budget.spend(0, path: path, at: at)
            var items: [SpecNode] = []
            for item in sequence { items.append(try convert(item, path: path, depth: depth + 1, budget: &budget)) }
            return SpecNode(.array(items), at: at)
        case .mapping(let mapping):
            try budget.spend(0, path: path, at: at)
            var members: [SpecMember] = []
            var keys = Set<String>()
            // Members brought in by merge keys (`<<: *defaults`): the mapping's own keys win, and
            // of several merged mappings the first that has a key gives it (YAML's merge type).
            var merged: [SpecMember] = []
            var mergedKeys = Set<String>()
            for (key, value) in mapping {
                let keyAt = location(key.mark)
                guard case .scalar(let k) = key else {
                    throw TestSpecError(file: path, location: keyAt, message: "a mapping key must be a plain value")
                }
                if k.string == "<<" && k.style == .plain {
                    let sources: [Node]
                    switch value {
                    case .mapping: sources = [value]
                    case .sequence(let items) where !items.isEmpty && items.allSatisfy({ $0.mapping != nil }): sources = Array(items)
                    default:
                        throw TestSpecError(file: path, location: location(value.mark), message: "'<<' merges a mapping or a list of mappings (e.g. <<: *defaults)")
                    }
                    for source in sources {
                        guard case .object(let more) = try convert(source, path: path, depth: depth + 1, budget: &budget).kind else { continue }
                        for m in more where mergedKeys.insert(m.key).inserted { merged.append(m) }
                    }
                    continue
                }
                try budget.spend(k.string.utf8.count, path: path, at: keyAt)
                keys.insert(k.string)
                members.append(SpecMember(key: k.string, keyLocation: keyAt, value: try convert(value, path: path, depth: depth + 1, budget: &budget)))
            }
            for m in merged where !keys.contains(m.key) { members.append(m) }
            return SpecNode(.object(members), at: at)
        case .alias:
            throw TestSpecError(file: path, location: at, message: "YAML aliases are not supported")
        }
    }

    private static func scalarKind(_ scalar: Node.Scalar, tag: String, path: String, at: SourceLocation) throws(TestSpecError) -> Kind {
        let s = scalar.string
        switch tag {
        case Tag.Name.null.rawValue: return .null
        case Tag.Name.bool.rawValue: return .bool(s.lowercased() == "true")
        case Tag.Name.int.rawValue:
            if s.hasPrefix("0o"), let v = Int64(s.dropFirst(2), radix: 8) { return .number(Double(v)) }
            if s.hasPrefix("0x"), let v = Int64(s.dropFirst(2), radix: 16) { return .number(Double(v)) }
            if let v = Double(s) { return .number(v) }
            throw TestSpecError(file: path, location: at, message: "invalid integer '\(s)'")
        case Tag.Name.float.rawValue:
            let lower = s.lowercased()
            if lower.hasSuffix(".inf") { return .number(lower.hasPrefix("-") ? -.infinity : .infinity) }
            if lower == ".nan" { return .number(.nan) }
            if let v = Double(s) { return .number(v) }
            throw TestSpecError(file: path, location: at, message: "invalid number '\(s)'")
        default:
            return .string(s)
        }
    }
}
