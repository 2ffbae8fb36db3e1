import RulesCompiler
import RulesSyntax

/// `textDocument/hover`: what is under the cursor.
///
/// - in a rule expression: the static type of the innermost sub-expression, and what a name
///   refers to (a `$variable`: the path segment it binds);
/// - on a `$key`: the segment it binds;
/// - on a `.read` or `.write` key: every rule of that kind along the path, since a grant at
///   any of them decides (grants cascade down and cannot be taken back); on a `.validate` key:
///   the `.write` rules that must grant first.
package enum HoverProvider {
    /// The hover's Markdown and the range it is about, nil when there is nothing to say.
    package static func hover(_ analysis: DocumentAnalysis, offset: Int) -> (markdown: String, range: SourceRange)? {
        if let (node, rule) = analysis.rule(at: offset) {
            if rule.keyRange.start <= offset && offset <= rule.keyRange.end {
                return (cascade(analysis, node: node, kind: rule.kind), rule.keyRange)
            }
            if case .expression(let checked) = rule.body {
                return expression(analysis, checked: checked, node: node, offset: offset)
            }
            // An expression with errors has no types, but its `$variables` still bind.
            guard let range = DefinitionProvider.definition(analysis, offset: offset),
                let binder = analysis.nodes(containing: offset).last(where: { $0.keyRange == range }), let name = binder.path.last
            else { return nil }
            return (binding(name, node: binder), DefinitionProvider.wordRange(at: offset, in: analysis.file.bytes))
        }
        if let node = analysis.node(withKeyAt: offset), let last = node.path.last, last.hasPrefix("$") {
            return (binding(last, node: node), node.keyRange)
        }
        return nil
    }

    private static func expression(_ analysis: DocumentAnalysis, checked: CheckedExpression, node: RuleNode, offset: Int) -> (String, SourceRange)? {
        let chain = ExpressionLocator.node(at: offset, in: checked)
        guard var e = chain.last else { return nil }
        // On a method's name, describe the call rather than the uncalled method.
        if chain.count >= 2, case .call(let callee, _) = chain[chain.count - 2].kind, callee === e { e = chain[chain.count - 2] }
        let range = checked.fileRange(of: e)
        let text = checked.source.text.utf8Slice(e.range)
        var lines = ["```\n\(text): \(valueType(of: e, in: checked))\n```"]
        if let note = meaning(checked.resolution(of: e), node: node) { lines.append(note) }
        return (lines.joined(separator: "\n\n"), range)
    }

    /// The type of a sub-expression as hover shows it: the checker's static type, with what the
    /// checker leaves dynamic said plainly: what is reached from `auth` has the type of its field
    /// (``AuthField``), a primitive known at run time names the types it may have.
    private static func valueType(of e: Expression, in checked: CheckedExpression) -> String {
        let type = checked.type(of: e)
        if type == .dynamicMap {
            guard let path = authPath(of: e, in: checked) else { return "any JSON value (known at run time)" }
            return AuthField.valueType(at: path)
        }
        return describe(type)
    }

    private static func describe(_ type: StaticType) -> String {
        switch type {
        case .dynamicPrimitive: "string, number, boolean or null (known at run time)"
        case .dynamicMap: "any JSON value (known at run time)"
        default: type.description
        }
    }

    /// The field names from `auth` down to `e` (`auth.token.email`: `["token", "email"]`), nil
    /// when an index is computed.
    private static func authPath(of e: Expression, in checked: CheckedExpression) -> [String]? {
        switch e.kind {
        case .identifier where checked.resolution(of: e) == .auth:
            return []
        case .member(let object, let name, _):
            return authPath(of: object, in: checked).map { $0 + [name] }
        case .index(let object, let index):
            guard case .string(let name) = index.kind else { return nil }
            return authPath(of: object, in: checked).map { $0 + [name] }
        default:
            return nil
        }
    }

    /// What a resolved name means at this node.
    private static func meaning(_ resolution: Resolution?, node: RuleNode) -> String? {
        let path = node.pathDescription
        switch resolution {
        case .auth?: return "`auth`: the signed-in user's auth object (`uid`, `provider`, `token`), or `null` when signed out."
        case .data?: return "`data`: the data at `\(path)` before the operation."
        case .newData?: return "`newData`: the data at `\(path)` as it would be after the write."
        case .root?: return "`root`: the database's root before the operation."
        case .now?: return "`now`: the server's time, in milliseconds since the Unix epoch."
        case .query?: return "`query`: the query of a read (`orderByChild`, `limitToFirst`, ...)."
        case .wildcard(let name, let slot)?:
            let wildcards = node.path.indices.filter { node.path[$0].hasPrefix("$") }
            guard slot < wildcards.count else { return nil }
            let segment = wildcards[slot]
            return "`\(name)`: the key at segment \(segment + 1) of `\(path)`, " + bound(name, node: node, segment: segment)
        case .call(let m)?, .method(let m)?:
            return "`\(m.name)()` → \(describe(m.resultType))"
        default: return nil
        }
    }

    /// `$uid` on its key.
    private static func binding(_ name: String, node: RuleNode) -> String {
        "`\(name)`: the key at segment \(node.path.count) of `\(node.pathDescription)`, " + bound(name, node: node, segment: node.path.count - 1)
    }

    private static func bound(_ name: String, node: RuleNode, segment: Int) -> String {
        let parent = "/" + node.path.prefix(segment).joined(separator: "/")
        return "a string: the name of whichever child of `\(parent)` is read or written."
    }

    /// The rules of a kind from the root down to `node`.
    private static func cascade(_ analysis: DocumentAnalysis, node: RuleNode, kind: RuleKind) -> String {
        let chain = analysis.nodes(containing: Int(node.range.start))
        func listing(_ k: RuleKind) -> [String] {
            chain.compactMap { n in n.rule(k).map { "- `\(n.pathDescription)` \(k.key): `\(analysis.file.text(of: $0.valueRange))`" } }
        }
        switch kind {
        case .read, .write:
            let verb = kind == .read ? "read" : "write"
            let rules = listing(kind)
            var out = "A \(verb) at `\(node.pathDescription)` is allowed when any of these grants it (a grant cascades to everything below and cannot be taken back):\n\n" + rules.joined(separator: "\n")
            if kind == .write { out += "\n\nThe written data must then pass every `.validate` at and below the location written." }
            return out
        case .validate:
            return "`.validate` at `\(node.pathDescription)` must hold for a write that changes this location (it does not cascade, and it does not run on a delete). The write must first be granted by one of:\n\n" + listing(.write).joined(separator: "\n")
        }
    }
}

extension String {
    /// The text of a UTF-8 byte range.
    func utf8Slice(_ r: SourceRange) -> String {
        let bytes = Array(utf8)
        let s = max(0, min(Int(r.start), bytes.count)), e = max(s, min(Int(r.end), bytes.count))
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }
}
