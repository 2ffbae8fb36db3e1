import RulesCompiler
import RulesSyntax

/// `textDocument/completion`: rule keys where a key goes, and in rule expressions the names in
/// scope, `auth.` and `auth.token.` members, snapshot methods (after `data.`, `newData.`,
/// `root.` and `child(...)` or `parent()`), string methods, `query.` fields and the child names
/// the rules use at a snapshot's location (inside `child('`).
package enum CompletionProvider {
    /// The completions at `offset` of `bytes`. `tree` is the latest rule tree known (the
    /// document's, or the last one read before it became half-typed).
    package static func complete(bytes: [UInt8], offset: Int, tree: RuleNode?) -> [CompletionItem] {
        let context = CursorContext.at(offset, in: bytes)
        switch context.place {
        case .key(let inString):
            guard context.rulePath != nil else { return [] }
            let partial = SourceRange(inString ? context.stringStart : offset, offset)
            return ruleKeys.filter { !context.siblingKeys.contains($0.0) }.map { key, detail in
                CompletionItem(label: key, kind: .property, detail: detail, newText: inString ? key : "\"\(key)\": ", replacing: partial)
            }
        case .stringValue(".indexOn"):
            guard let path = context.rulePath else { return [] }
            let partial = SourceRange(context.stringStart, offset)
            return indexableChildren(at: path, tree: tree).map {
                CompletionItem(label: $0, kind: .folder, detail: "a child of the records at /" + path.joined(separator: "/"), newText: $0, replacing: partial)
            }
        case .stringValue(let key):
            guard let path = context.rulePath, let kind = RuleKind(rawValue: key) else { return [] }
            let typed = Array(String(decoding: bytes[context.stringStart..<min(offset, bytes.count)], as: UTF8.self))
            return expression(typed, end: offset, kind: kind, path: path, tree: tree)
        case .other:
            return []
        }
    }

    static let ruleKeys: [(String, String)] = [
        (".read", "who may read here and below"),
        (".write", "who may write here and below"),
        (".validate", "what data may be written here"),
        (".indexOn", "children to index for queries"),
    ]

    /// Completions in an expression whose text before the cursor is `typed`.
    private static func expression(_ typed: [Character], end: Int, kind: RuleKind, path: [String], tree: RuleNode?) -> [CompletionItem] {
        // Inside a string literal: child names in `child('`, `hasChild('`, `hasChildren(['a', '`.
        if let quote = ExpressionChain.openStringLiteral(typed) {
            let before = Array(typed[..<quote])
            guard let open = ExpressionChain.unclosedParenthesis(before) else { return [] }
            let callee = Array(before[..<open])
            guard let chain = ExpressionChain.parse(String(callee[ExpressionChain.start(endingAt: callee)...])[...]),
                let method = chain.steps.last?.name, ["child", "hasChild", "hasChildren"].contains(method)
            else { return [] }
            var receiver = chain
            receiver.steps.removeLast()
            guard let location = snapshotLocation(receiver, rulePath: path) else { return [] }
            let partialText = String(typed[(quote + 1)...])
            let partial = SourceRange(end - partialText.utf8.count, end)
            return childNames(at: location, tree: tree).map {
                CompletionItem(label: $0, kind: .folder, detail: "a child the rules name at /" + (location + [$0]).joined(separator: "/"), newText: $0, replacing: partial)
            }
        }
        // The partial name before the cursor, and the chain before its dot.
        var nameStart = typed.count
        while nameStart > 0, typed[nameStart - 1].isLetter || typed[nameStart - 1].isNumber || typed[nameStart - 1] == "_" || typed[nameStart - 1] == "$" {
            nameStart -= 1
        }
        let partialText = String(typed[nameStart...])
        let partial = SourceRange(end - partialText.utf8.count, end)
        let items: [(String, CompletionItem.Kind, String)]
        if nameStart > 0, typed[nameStart - 1] == "." {
            let before = Array(typed[..<(nameStart - 1)])
            let start = ExpressionChain.start(endingAt: before)
            guard let chain = ExpressionChain.parse(String(before[start...])[...]) else { return [] }
            items = members(of: chain, rulePath: path)
        } else {
            items = names(kind: kind, path: path)
        }
        return items.filter { $0.0.hasPrefix(partialText) || partialText.isEmpty }.map { label, kind, detail in
            let text = kind == .method ? label + "(" + (Method(named: label)?.arity == 0 && label != "hasChildren" ? ")" : "") : label
            return CompletionItem(label: label, kind: kind, detail: detail, newText: text, replacing: partial)
        }
    }

    /// The names an expression can start with here.
    private static func names(kind: RuleKind, path: [String]) -> [(String, CompletionItem.Kind, String)] {
        var out: [(String, CompletionItem.Kind, String)] = [
            ("auth", .variable, "the signed-in user's token, or null"),
            ("root", .variable, "snapshot of the database's root before the operation"),
            ("data", .variable, "snapshot of this location before the operation"),
        ]
        if kind == .read {
            out.append(("query", .variable, "the query of the read"))
        } else {
            out.append(("newData", .variable, "snapshot of this location after the write"))
        }
        out.append(("now", .variable, "the server's time in milliseconds"))
        for (i, segment) in path.enumerated() where segment.hasPrefix("$") {
            out.append((segment, .variable, "the key at segment \(i + 1) of /" + path.joined(separator: "/")))
        }
        out += [("true", .keyword, "boolean"), ("false", .keyword, "boolean"), ("null", .keyword, "null")]
        return out
    }

    /// What a value reached through `chain` has.
    private enum ValueKind { case auth, token, firebase, snapshot, string, query, other }

    private static func kind(of chain: ExpressionChain) -> ValueKind {
        var current: ValueKind
        switch chain.head {
        case "auth": current = .auth
        case "data", "newData", "root": current = .snapshot
        case "query": current = .query
        default: current = chain.head.hasPrefix("$") ? .string : .other
        }
        for step in chain.steps {
            switch (current, step.name, step.arguments != nil) {
            case (.auth, "token", false): current = .token
            case (.token, "firebase", false): current = .firebase
            case (.auth, _, false), (.token, _, false): current = .string
            case (.firebase, _, false): current = .string
            case (.snapshot, "child", true), (.snapshot, "parent", true): current = .snapshot
            case (.snapshot, "val", true), (.snapshot, "getPriority", true): current = .string
            case (.string, "replace", true), (.string, "toLowerCase", true), (.string, "toUpperCase", true): current = .string
            default: current = .other
            }
        }
        return current
    }

    /// The members of what `chain` reaches.
    private static func members(of chain: ExpressionChain, rulePath: [String]) -> [(String, CompletionItem.Kind, String)] {
        switch kind(of: chain) {
        case .auth:
            return AuthField.members(of: []).map { ($0.name, .field, $0.detail) }
        case .token:
            return AuthField.members(of: ["token"]).map { ($0.name, .field, $0.detail) }
        case .firebase:
            return AuthField.members(of: ["token", "firebase"]).map { ($0.name, .field, $0.detail) }
        case .snapshot:
            return Method.allCases.filter(\.isSnapshotMethod).map { ($0.name, .method, signature($0)) }
        case .string:
            return [("length", .property, "number")] + Method.allCases.filter { !$0.isSnapshotMethod }.map { ($0.name, .method, signature($0)) }
        case .query:
            return QueryField.allCases.map { ($0.rawValue, .field, "query field") }
        case .other:
            return []
        }
    }

    private static func signature(_ m: Method) -> String {
        let args: String
        switch m {
        case .child, .hasChild: args = "path"
        case .hasChildren: args = "[names]"
        case .contains, .beginsWith, .endsWith: args = "substring"
        case .matches: args = "/regex/"
        case .replace: args = "from, to"
        default: args = ""
        }
        return "\(m.name)(\(args)) → \(m.resultType)"
    }

    /// The rule path a snapshot chain points at, nil when it is not a snapshot.
    static func snapshotLocation(_ chain: ExpressionChain, rulePath: [String]) -> [String]? {
        var location: [String]
        switch chain.head {
        case "data", "newData": location = rulePath
        case "root": location = []
        default: return nil
        }
        for step in chain.steps {
            switch step.name {
            case "child": location += ExpressionChain.pathSegments(step.arguments ?? "")
            case "parent": _ = location.popLast()
            default: return nil
            }
        }
        return location
    }

    /// What `.indexOn` at `location` may name: the children the rules give the records below it
    /// (the wildcard's literal children, and those of each literal child), and `.value`.
    static func indexableChildren(at location: [String], tree: RuleNode?) -> [String] {
        var node = tree
        for segment in location {
            node = segment.hasPrefix("$") ? node?.wildcard?.node : node?.literalChild(segment)
        }
        guard let node else { return [".value"] }
        var records = node.literalChildren.map(\.node)
        if let w = node.wildcard { records.insert(w.node, at: 0) }
        var seen = Set<String>()
        let names = records.flatMap { $0.literalChildren.map(\.key) }.filter { seen.insert($0).inserted }
        return names + [".value"]
    }

    /// The literal child keys (and the wildcard) of the rule node at `location`.
    static func childNames(at location: [String], tree: RuleNode?) -> [String] {
        var node = tree
        for segment in location {
            guard let n = node else { return [] }
            node = segment.hasPrefix("$") || segment == "*" ? (n.wildcard?.node ?? nil) : (n.literalChild(segment) ?? n.wildcard?.node)
        }
        guard let node else { return [] }
        return node.literalChildren.map(\.key)
    }
}
