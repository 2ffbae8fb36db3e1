import DatabaseRules
import Foundation
import RulesCoverage

/// `/.inspect/rules.json`: a namespace's rules in force (source text and origin), how often each
/// rule was evaluated, true, false or an error since start, and whether the rules file on disk
/// compiles now (its diagnostics when it does not: the server then keeps the previous rules).
///
/// ```json
/// {"namespace": "default", "origin": "database.rules.json", "file": "database.rules.json",
///  "source": "{…}", "coverage": true, "dropped": 0, "pending": 0,
///  "rules": [{"rulePath": "/posts/$postId/.write", "line": 20, "column": 19,
///             "evaluations": 3, "true": 2, "false": 1, "error": 0}],
///  "disk": {"path": "database.rules.json", "compiles": false,
///           "diagnostics": [{"line": 4, "column": 9, "severity": "error", "message": "…"}]}}
/// ```
///
/// `coverage` is false when the server runs with `--no-coverage` (the counts are then zero);
/// `disk` is null when the server has no rules file.
enum RulesReport {
    static func json(namespace: Namespace, coverage: CoverageRecorder?, rulesFile: String?) -> String {
        let rules = namespace.rules
        var out = #"{"namespace":"# + q(namespace.name)
        out += #","origin":"# + q(rules.origin.description)
        out += #","file":"# + q(rules.ruleset.compiled.file.path)
        out += #","source":"# + q(rules.source)
        let counts = coverage?.counts(namespace: namespace.name, rules: rules.loaded)
        out += #","coverage":"# + (coverage == nil ? "false" : "true")
        out += #","dropped":\#(counts?.dropped ?? 0),"pending":\#(counts?.pending ?? 0)"#
        var collector = counts?.collector ?? CoverageCollector()
        if counts == nil { collector.register(rules.loaded) }
        let entries = collector.files.flatMap(\.rules).map { r in
            #"{"rulePath":"# + q(r.rulePath) + #","line":\#(r.location.line),"column":\#(r.location.column)"#
                + #","evaluations":\#(r.evaluations),"true":\#(r.trueCount),"false":\#(r.falseCount),"error":\#(r.errorCount)}"#
        }
        out += #","rules":["# + entries.joined(separator: ",") + "]"
        out += #","disk":"# + (rulesFile.map(disk) ?? "null") + "}"
        return out
    }

    /// Whether the file compiles now, and its diagnostics (errors and warnings) when it does not.
    static func disk(_ path: String) -> String {
        var out = #"{"path":"# + q(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            return out + #","compiles":false,"diagnostics":[{"line":null,"column":null,"severity":"error","message":"# + q("cannot read \(path)") + "}]}"
        }
        do {
            _ = try Ruleset(file: SourceFile(path: path, bytes: [UInt8](data)))
            return out + #","compiles":true,"diagnostics":[]}"#
        } catch {
            let diagnostics = error.diagnostics.map { d in
                let at = error.file?.location(of: d.range)
                return #"{"line":"# + (at.map { String($0.line) } ?? "null") + #","column":"# + (at.map { String($0.column) } ?? "null")
                    + #","severity":"# + q(d.severity.rawValue) + #","message":"# + q(d.message) + "}"
            }
            let listed = diagnostics.isEmpty ? [#"{"line":null,"column":null,"severity":"error","message":"# + q(error.description) + "}"] : diagnostics
            out += #","compiles":false,"diagnostics":["# + listed.joined(separator: ",") + "]}"
            return out
        }
    }

    private static func q(_ s: String) -> String { DataText.jsonQuoted(s) }
}
