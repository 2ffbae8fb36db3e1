import DatabaseRules
import RulesSyntax

/// An ``Explanation`` as JSON for the page: each rule evaluated, where it is, its result, the
/// `$vars` bound, its sub-expression values and the part that made it false, and which one decided.
///
/// ```json
/// {"operation": "update /", "allowed": false, "rejection": null, "decisive": 3,
///  "evaluations": [{"id": 0, "kind": ".write", "rulePath": "/posts/$postId/.write", "dataPath": "/posts/p1",
///    "file": "database.rules.json", "line": 20, "column": 19, "result": "false", "error": null,
///    "errorLine": null, "errorColumn": null, "bindings": [{"name": "$postId", "value": "p1"}],
///    "source": "auth != null && …", "values": [{"text": "auth != null", "value": "true"}],
///    "falsePart": "!data.exists()", "falseDetail": null}]}
/// ```
///
/// `decisive` is an index into `evaluations` (null when no rule decided, e.g. no rule grants).
/// `falseDetail` says what made a false rule's false part false (`missing 'body'`, `2 === 1`).
/// `falseAlternatives` (`[{"part", "value", "detail"}]`) lists every alternative of the `||`
/// that made a rule false, each with its value and detail; empty when no `||` decided.
enum ExplanationJSON {
    static func render(_ explanation: Explanation) -> String {
        value(explanation).rendered(indent: 0)
    }

    /// The explanation as a JSON value.
    static func value(_ explanation: Explanation) -> JSONText {
        let decisiveID = explanation.decisive?.id
        let decisive = explanation.evaluations.firstIndex { $0.id == decisiveID }
        return .object([
            ("operation", .string(explanation.operation)),
            ("allowed", .bool(explanation.allowed)),
            ("rejection", .string(orNull: explanation.rejection)),
            ("decisive", decisive.map(JSONText.int) ?? .null),
            ("evaluations", .array(explanation.evaluations.map(evaluation))),
        ])
    }

    static func evaluation(_ e: RuleEvaluation) -> JSONText {
        let result: String, error: String?
        switch e.outcome {
        case .value(let b): (result, error) = (b ? "true" : "false", nil)
        case .error(let runtime): (result, error) = ("error", runtime.message)
        }
        return .object([
            ("id", .int(e.id)), ("kind", .string(e.kind.rawValue)),
            ("rulePath", .string(e.rulePath)), ("dataPath", .string(e.dataPath)),
            ("file", .string(e.file)), ("line", .int(e.location.line)), ("column", .int(e.location.column)),
            ("result", .string(result)), ("error", .string(orNull: error)),
            ("errorLine", e.errorLocation.map { .int($0.line) } ?? .null),
            ("errorColumn", e.errorLocation.map { .int($0.column) } ?? .null),
            ("bindings", .array(e.bindings.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })),
            ("source", .string(e.source)),
            ("values", .array(e.values.map { .object([("text", .string($0.text)), ("value", .string($0.value))]) })),
            ("falsePart", .string(orNull: e.falsePart)),
            ("falseDetail", .string(orNull: e.falseDetail)),
            ("falseAlternatives", .array(e.falseAlternatives.map {
                .object([("part", .string($0.part)), ("value", .string($0.value)), ("detail", .string(orNull: $0.detail))])
            })),
        ])
    }
}
