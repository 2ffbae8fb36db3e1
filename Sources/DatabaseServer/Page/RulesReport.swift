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
        let counts = coverage?.counts(namespace: namespace.name, rules: rules.loaded)
        var collector = counts?.collector ?? CoverageCollector()
        if counts == nil { collector.register(rules.loaded) }
        let entries: [JSONText] = collector.files.flatMap(\.rules).map { r in
            .object([
                ("rulePath", .string(r.rulePath)), ("line", .int(r.location.line)), ("column", .int(r.location.column)),
                ("evaluations", .int(r.evaluations)), ("true", .int(r.trueCount)), ("false", .int(r.falseCount)),
                ("error", .int(r.errorCount)),
            ])
        }
        return JSONText.object([
            ("namespace", .string(namespace.name)),
            ("origin", .string(rules.origin.description)),
            ("file", .string(rules.ruleset.compiled.file.path)),
            ("source", .string(rules.source)),
            ("coverage", .bool(coverage != nil)),
            ("dropped", .int(counts?.dropped ?? 0)), ("pending", .int(counts?.pending ?? 0)),
            ("rules", .array(entries)),
            ("disk", rulesFile.map(disk) ?? .null),
        ]).rendered(indent: 0)
    }

    /// Whether the file compiles now, and its diagnostics (errors and warnings) when it does not.
    static func disk(_ path: String) -> JSONText {
        func diagnostic(_ line: Int?, _ column: Int?, _ severity: String, _ message: String) -> JSONText {
            .object([
                ("line", line.map(JSONText.int) ?? .null), ("column", column.map(JSONText.int) ?? .null),
                ("severity", .string(severity)), ("message", .string(message)),
            ])
        }
        func answer(compiles: Bool, _ diagnostics: [JSONText]) -> JSONText {
            .object([("path", .string(path)), ("compiles", .bool(compiles)), ("diagnostics", .array(diagnostics))])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return answer(compiles: false, [diagnostic(nil, nil, "error", "cannot read \(path)")])
        }
        do {
            _ = try Ruleset(file: SourceFile(path: path, bytes: [UInt8](data)))
            return answer(compiles: true, [])
        } catch {
            let diagnostics = error.diagnostics.map { d in
                let at = error.file?.location(of: d.range)
                return diagnostic(at?.line, at?.column, d.severity.rawValue, d.message)
            }
            return answer(compiles: false, diagnostics.isEmpty ? [diagnostic(nil, nil, "error", error.description)] : diagnostics)
        }
    }
}
