import RulesSyntax

/// `--format json`: `{"passed": N, "failed": M, "tests": [{file, name, step, expected, actual,
/// passed, explanation?}]}`, one entry per step; failed steps carry the reason and the
/// explanation text.
public enum JSONReporter {
    /// The report, pretty-printed, ending with a line break.
    public static func report(_ result: TestRunResult) -> String {
        var out = "{\n  \"passed\": \(result.passedSteps),\n  \"failed\": \(result.failedSteps),\n  \"tests\": ["
        var first = true
        for test in result.tests {
            for step in test.steps {
                out += first ? "\n" : ",\n"
                first = false
                var fields: [(String, String)] = [
                    ("file", JSONText.quote(test.file)),
                    ("name", JSONText.quote(test.name)),
                    ("step", String(step.index)),
                    ("operation", JSONText.quote(step.description)),
                    ("expected", JSONText.quote(step.expected)),
                    ("actual", JSONText.quote(step.actual)),
                    ("passed", step.passed ? "true" : "false"),
                ]
                if !step.passed {
                    if let reason = step.reason { fields.append(("reason", JSONText.quote(reason))) }
                    if let e = step.explanation {
                        if let d = e.decisive { fields.append(("decidingRule", JSONText.quote("\(d.rulePath) at \(d.position)"))) }
                        fields.append(("explanation", JSONText.quote(e.text)))
                    }
                }
                out += "    {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
        }
        out += first ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }
}
