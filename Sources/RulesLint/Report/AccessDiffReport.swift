import RulesCompiler
import RulesSyntax

/// `rules diff`'s reports: text, JSON (the contract in the README), Markdown (a pull-request
/// comment) and SARIF (newly allowed cells as results on the new file).
package struct AccessDiffReport {
    package var diff: AccessDiff
    package var oldName: String
    package var newName: String

    package init(diff: AccessDiff, oldName: String, newName: String) {
        self.diff = diff
        self.oldName = oldName
        self.newName = newName
    }

    /// "no change in who can do what", else a line per change with its witness.
    package func text() -> String {
        guard !diff.unchanged else { return "no change in who can do what (\(oldName) → \(newName))\n" }
        var out = summary + "\n"
        for c in diff.changes {
            out += "\n\(c.kind == .newlyAllowed ? "+ newly allowed" : "- newly denied"): \(c.principal.phrase) may \(c.kind == .newlyAllowed ? "now" : "no longer") \(c.operation.rawValue) \(c.path)"
            if let rule = c.rule { out += " (\(c.kind == .newlyAllowed ? "new" : "old"): \(rule.description): \(rule.text))" }
            out += "\n"
            out += c.witness.lines.map { "    " + $0 + "\n" }.joined()
            out += "    old: \(c.old ? "allow" : "deny"), new: \(c.new ? "allow" : "deny")\n"
        }
        return out
    }

    private var summary: String {
        let allowed = diff.changes.filter { $0.kind == .newlyAllowed }.count
        let denied = diff.changes.count - allowed
        return "\(allowed) newly allowed, \(denied) newly denied (\(oldName) → \(newName))"
    }

    /// `{"unchanged", "changes": [{"change", "operation", "path", "principal", "witness": {"auth",
    /// "data", "now", "steps", "old", "new"}}]}`.
    package func json() -> JSONText {
        .object([
            ("unchanged", .bool(diff.unchanged)),
            ("changes", .array(diff.changes.map { c in
                guard case .object(var w) = AccessJSON.witness(c.witness) else { return .null }
                w += [("old", .string(c.old ? "allow" : "deny")), ("new", .string(c.new ? "allow" : "deny"))]
                var m: [(String, JSONText)] = [
                    ("change", .string(c.kind.rawValue)), ("operation", .string(c.stepOperation)), ("path", .string(c.path)),
                    ("principal", .string(c.principal.name)), ("cell", .string(c.operation.rawValue)),
                ]
                if let rule = c.rule { m.append(("rule", .string(rule.description))) }
                m.append(("witness", .object(w)))
                return .object(m)
            })),
        ])
    }

    /// A pull-request comment: a short summary, then a table, then the witnesses folded.
    package func markdown() -> String {
        guard !diff.unchanged else { return "**Rules access:** no change in who can do what.\n" }
        var out = "**Rules access:** " + summary.replacingOccurrences(of: "→", with: "to") + "\n\n"
        out += "| change | who | operation | path | rule |\n| --- | --- | --- | --- | --- |\n"
        for c in diff.changes {
            let mark = c.kind == .newlyAllowed ? "newly allowed" : "newly denied"
            out += "| \(mark) | \(c.principal.phrase) | \(c.operation.rawValue) | `\(c.path)` | \(c.rule.map { "\($0.description)" } ?? "") |\n"
        }
        out += "\n<details><summary>Witnesses (each run by the engine on both versions)</summary>\n\n```text\n"
        for c in diff.changes {
            out += "\(c.kind.rawValue) \(c.operation.rawValue) \(c.path), \(c.principal.name):\n"
            out += c.witness.lines.map { "  " + $0 + "\n" }.joined()
        }
        out += "```\n\n</details>\n"
        return out
    }

    /// SARIF 2.1.0: each newly allowed cell a result at the rule that allows it in the new file.
    package func sarif(newFile: SourceFile, uri: String, version: String) -> JSONText {
        var results: [JSONText] = []
        for c in diff.changes where c.kind == .newlyAllowed {
            let range = c.rule?.range ?? SourceRange.at(0)
            let s = newFile.location(of: Int(range.start))
            let e = newFile.location(of: Int(max(range.end, range.start)))
            results.append(.object([
                ("ruleId", .string("newly-allowed")), ("level", .string("warning")),
                ("message", .object([("text", .string("Newly allowed: \(c.principal.phrase) may now \(c.operation.rawValue) \(c.path). Witness: " + c.witness.lines.joined(separator: " ")))])),
                ("locations", .array([.object([("physicalLocation", .object([
                    ("artifactLocation", .object([("uri", .string(uri))])),
                    ("region", .object([("startLine", .int(s.line)), ("startColumn", .int(s.column)), ("endLine", .int(e.line)), ("endColumn", .int(e.column))])),
                ]))])])),
            ]))
        }
        let rule: JSONText = .object([
            ("id", .string("newly-allowed")), ("name", .string("NewlyAllowed")),
            ("shortDescription", .object([("text", .string("A change to the rules allows what the previous version denied."))])),
        ])
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")), ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([("name", .string("rules")), ("version", .string(version)), ("rules", .array([rule]))]))])),
                ("results", .array(results)),
            ])])),
        ])
    }
}
