import DatabaseRules

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
        let decisiveID = explanation.decisive?.id
        let decisive = explanation.evaluations.firstIndex { $0.id == decisiveID }
        var out = #"{"operation":"# + q(explanation.operation)
        out += #","allowed":"# + (explanation.allowed ? "true" : "false")
        out += #","rejection":"# + (explanation.rejection.map(q) ?? "null")
        out += #","decisive":"# + (decisive.map(String.init) ?? "null")
        out += #","evaluations":["# + explanation.evaluations.map(evaluation).joined(separator: ",") + "]}"
        return out
    }

    static func evaluation(_ e: RuleEvaluation) -> String {
        let result: String, error: String?
        switch e.outcome {
        case .value(let b): (result, error) = (b ? "true" : "false", nil)
        case .error(let runtime): (result, error) = ("error", runtime.message)
        }
        var out = #"{"id":\#(e.id),"kind":"# + q(e.kind.rawValue)
        out += #","rulePath":"# + q(e.rulePath) + #","dataPath":"# + q(e.dataPath)
        out += #","file":"# + q(e.file) + #","line":\#(e.location.line),"column":\#(e.location.column)"#
        out += #","result":"# + q(result) + #","error":"# + (error.map(q) ?? "null")
        out += #","errorLine":"# + (e.errorLocation.map { String($0.line) } ?? "null")
        out += #","errorColumn":"# + (e.errorLocation.map { String($0.column) } ?? "null")
        out += #","bindings":["# + e.bindings.map { #"{"name":"# + q($0.name) + #","value":"# + q($0.value) + "}" }.joined(separator: ",") + "]"
        out += #","source":"# + q(e.source)
        out += #","values":["# + e.values.map { #"{"text":"# + q($0.text) + #","value":"# + q($0.value) + "}" }.joined(separator: ",") + "]"
        out += #","falsePart":"# + (e.falsePart.map(q) ?? "null")
        out += #","falseDetail":"# + (e.falseDetail.map(q) ?? "null")
        out += #","falseAlternatives":["# + e.falseAlternatives.map {
            #"{"part":"# + q($0.part) + #","value":"# + q($0.value) + #","detail":"# + ($0.detail.map(q) ?? "null") + "}"
        }.joined(separator: ",") + "]}"
        return out
    }

    private static func q(_ s: String) -> String { DataText.jsonQuoted(s) }
}
