import RulesCompiler
import RulesLint
import RulesSyntax

/// `textDocument/codeAction`: for `query-without-index`, add the missing `.indexOn` entry; for
/// any lint, suppress it with a `// rules-lint-disable-next-line CODE` comment above its line
/// (the syntax of `docs/lints.md`).
package enum CodeActionProvider {
    /// The actions for the findings that overlap `range`.
    package static func actions(_ analysis: DocumentAnalysis, range: SourceRange) -> [CodeAction] {
        var out: [CodeAction] = []
        let lines = (analysis.file.location(of: Int(range.start)).line, analysis.file.location(of: Int(range.end)).line)
        for d in analysis.diagnostics ?? [] {
            let r = d.diagnostic.range
            let line = analysis.file.location(of: Int(r.start)).line
            let overlaps = (r.start <= range.end && range.start <= r.end) || (lines.0...lines.1).contains(line)
            guard overlaps, let code = LintCode(d.diagnostic.code) else { continue }
            if code == .queryWithoutIndex, let fix = addIndex(analysis, d) { out.append(fix) }
            if code != .unusedSuppression && code != .unknownLintCode, let fix = suppress(analysis, d, code: code) { out.append(fix) }
        }
        return out
    }

    /// The child a `query-without-index` finding wants indexed, from its message.
    static func indexKey(_ message: String) -> String? {
        guard let marker = message.range(of: "\".indexOn\" for \"") else { return nil }
        let rest = message[marker.upperBound...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }

    private static func addIndex(_ analysis: DocumentAnalysis, _ d: CheckedDiagnostic) -> CodeAction? {
        guard let key = indexKey(d.diagnostic.message), let node = analysis.rule(at: Int(d.diagnostic.range.start))?.node,
            let object = jsonObject(analysis, path: node.path), let members = object.members, let first = members.first
        else { return nil }
        let quoted = JSONText.quote(key)
        let edit: TextEdit
        if let existing = members.first(where: { $0.key.value == ".indexOn" }) {
            switch existing.value.kind {
            case .string:
                edit = TextEdit(range: existing.value.range, newText: "[\(analysis.file.text(of: existing.value.range)), \(quoted)]")
            case .array(let items):
                let at = Int(existing.value.range.end) - 1
                edit = TextEdit(range: .at(at), newText: items.isEmpty ? quoted : ", \(quoted)")
            default:
                return nil
            }
        } else {
            let start = Int(first.key.range.start)
            edit = TextEdit(range: .at(start), newText: "\".indexOn\": [\(quoted)],\n" + indentation(analysis.file, before: start))
        }
        return CodeAction(title: "Add \"\(key)\" to .indexOn at \(node.pathDescription)", diagnostic: d, edits: [edit], preferred: true)
    }

    private static func suppress(_ analysis: DocumentAnalysis, _ d: CheckedDiagnostic, code: LintCode) -> CodeAction? {
        let file = analysis.file
        let line = file.location(of: Int(d.diagnostic.range.start)).line
        let lineStart = file.lineStarts[line - 1]
        // A comment cannot go where the line starts inside a string (a rule broken over lines).
        switch CursorContext.at(lineStart, in: file.bytes).place {
        case .key(inString: true), .stringValue: return nil
        default: break
        }
        let indent = indentation(file, before: lineStart + leadingBlanks(file, from: lineStart))
        let edit = TextEdit(range: .at(lineStart), newText: "\(indent)// \(LintSuppression.Scope.nextLine.rawValue) \(code.rawValue)\n")
        return CodeAction(title: "Suppress \(code.rawValue) on this line", diagnostic: d, edits: [edit], preferred: false)
    }

    /// The JSON object of the rule node at `path` (below `rules`).
    static func jsonObject(_ analysis: DocumentAnalysis, path: [String]) -> JSONNode? {
        var node = analysis.json?["rules"]
        for key in path { node = node?[key] }
        return node
    }

    private static func leadingBlanks(_ file: SourceFile, from start: Int) -> Int {
        var i = start
        while i < file.bytes.count, file.bytes[i] == UInt8(ascii: " ") || file.bytes[i] == UInt8(ascii: "\t") { i += 1 }
        return i - start
    }

    /// The blanks between the start of the line holding `offset` and the line's first character.
    static func indentation(_ file: SourceFile, before offset: Int) -> String {
        let line = file.location(of: offset).line
        let start = file.lineStarts[line - 1]
        return String(decoding: file.bytes[start..<(start + leadingBlanks(file, from: start))], as: UTF8.self)
    }
}
