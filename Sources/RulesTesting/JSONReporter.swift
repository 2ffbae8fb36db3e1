import RulesSyntax

/// `--format json` (documented in docs/test-spec-format.md, "Outputs"): `{"version": 1,
/// "unit": "step", "passed": N, "failed": M, "skipped": K, "tests": [...]}`: one entry per step
/// (`file`, `line`, `name`, `step`, `operation`, `expected`, `actual`, `passed`; a failed step
/// adds `problems`, `reason`, `decidingRule` and `explanation`), and one entry per skipped test
/// (`file`, `line`, `name`, `skipped: true`). `passed` and `failed` count steps, `skipped` tests.
package enum JSONReporter {
    /// The format's version: it changes only when a field changes meaning or goes away.
    package static let version = 1

    /// The report, pretty-printed, ending with a line break.
    package static func report(_ result: TestRunResult) -> String {
        var out = "{\n  \"version\": \(version),\n  \"unit\": \"step\",\n"
        out += "  \"passed\": \(result.passedSteps),\n  \"failed\": \(result.failedSteps),\n  \"skipped\": \(result.skippedTests),\n  \"tests\": ["
        var first = true
        for test in result.tests {
            if test.skipped {
                out += first ? "\n" : ",\n"
                first = false
                out += "    {\"file\": \(JSONText.quote(test.file)), \"line\": \(test.line), \"name\": \(JSONText.quote(test.name)), \"skipped\": true}"
                continue
            }
            for step in test.steps {
                out += first ? "\n" : ",\n"
                first = false
                var fields: [(String, String)] = [
                    ("file", JSONText.quote(test.file)),
                    ("line", String(test.line)),
                    ("name", JSONText.quote(test.name)),
                    ("step", String(step.index)),
                    ("operation", JSONText.quote(step.description)),
                    ("expected", JSONText.quote(step.expected)),
                    ("actual", JSONText.quote(step.actual)),
                    ("passed", step.passed ? "true" : "false"),
                ]
                if !step.passed {
                    if !step.problems.isEmpty { fields.append(("problems", "[" + step.problems.map(JSONText.quote).joined(separator: ", ") + "]")) }
                    if let reason = step.reason { fields.append(("reason", JSONText.quote(reason))) }
                    if let e = step.explanation {
                        if let d = e.decisive { fields.append(("decidingRule", JSONText.quote("\(d.rulePath) at \(d.position)"))) }
                        fields.append(("explanation", JSONText.quote(e.trace)))
                    }
                }
                out += "    {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
        }
        out += first ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }
}
