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
                    ("file", JSONWriter.quote(test.file)),
                    ("name", JSONWriter.quote(test.name)),
                    ("step", String(step.index)),
                    ("operation", JSONWriter.quote(step.description)),
                    ("expected", JSONWriter.quote(step.expected)),
                    ("actual", JSONWriter.quote(step.actual)),
                    ("passed", step.passed ? "true" : "false"),
                ]
                if !step.passed {
                    if let reason = step.reason { fields.append(("reason", JSONWriter.quote(reason))) }
                    if let e = step.explanation {
                        if let d = e.decisive { fields.append(("decidingRule", JSONWriter.quote("\(d.rulePath) at \(d.position)"))) }
                        fields.append(("explanation", JSONWriter.quote(e.text)))
                    }
                }
                out += "    {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
        }
        out += first ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }
}
