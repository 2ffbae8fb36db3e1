import RulesSyntax

/// JUnit XML (the dialect GitLab and the test-reporter actions read): one `<testsuite>` per spec
/// file, one `<testcase>` per test with the spec's `file` and the test's `line`; a failed test has
/// one `<failure>` whose message names the first failed step and whose text holds every failed
/// step with its explanation; a skipped test has `<skipped/>`. A spec file that cannot be loaded
/// is a suite with one `<testcase>` holding an `<error>` per load error. JUnit counts tests (the
/// text and JSON reports count steps).
package enum JUnitReporter {
    /// The XML document; `loadErrors` are the errors of spec files that could not be loaded.
    package static func report(_ result: TestRunResult, loadErrors: [TestSpecError] = []) -> String {
        var errorFiles: [String] = []
        for e in loadErrors where !errorFiles.contains(e.file) { errorFiles.append(e.file) }
        let failures = result.tests.count { !$0.passed }
        let skipped = result.skippedTests
        let total = result.tests.reduce(0) { $0 + $1.milliseconds } / 1000
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"rules\" tests=\"\(result.tests.count + errorFiles.count)\" failures=\"\(failures)\" errors=\"\(errorFiles.count)\" skipped=\"\(skipped)\" time=\"\(seconds(total))\">\n"
        for file in errorFiles {
            let errors = loadErrors.filter { $0.file == file }
            let line = errors.first?.location.line ?? 1
            out += "  <testsuite name=\"\(escape(file))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n"
            out += "    <testcase classname=\"\(escape(file))\" name=\"load \(escape(file))\" file=\"\(escape(file))\" line=\"\(line)\" time=\"0.000\">\n"
            let first = errors.first.map { "\($0.location.line):\($0.location.column): \($0.message)" } ?? ""
            let text = errors.map(\.description).joined(separator: "\n") + "\n"
            out += "      <error message=\"\(escape(first))\" type=\"LoadError\">\(escape(text))</error>\n"
            out += "    </testcase>\n  </testsuite>\n"
        }
        var files: [String] = []
        for t in result.tests where !files.contains(t.file) { files.append(t.file) }
        for file in files {
            let tests = result.tests.filter { $0.file == file }
            let time = tests.reduce(0) { $0 + $1.milliseconds } / 1000
            out += "  <testsuite name=\"\(escape(file))\" tests=\"\(tests.count)\" failures=\"\(tests.count { !$0.passed })\" errors=\"0\" skipped=\"\(tests.count { $0.skipped })\" time=\"\(seconds(time))\">\n"
            for test in tests {
                let open = "    <testcase classname=\"\(escape(file))\" name=\"\(escape(test.name))\" file=\"\(escape(file))\" line=\"\(test.line)\" time=\"\(seconds(test.milliseconds / 1000))\""
                if test.skipped {
                    out += open + ">\n      <skipped/>\n    </testcase>\n"
                    continue
                }
                let failed = test.steps.filter { !$0.passed }
                guard let first = failed.first else {
                    out += open + "/>\n"
                    continue
                }
                var text = ""
                for step in failed {
                    text += "step \(step.index): \(step.description): expected \(step.expected), got \(step.actual)\n"
                    for problem in step.problems { text += problem + "\n" }
                    if let reason = step.reason { text += "reason: \(reason)\n" }
                    if let e = step.explanation {
                        if let d = e.decisive { text += "deciding rule: \(d.rulePath) at \(d.position)\n" }
                        text += e.text
                    }
                }
                let what = first.expectedAllow != first.actualAllow ? "expected \(first.expected), got \(first.actual)" : (first.problems.first ?? "")
                let message = "step \(first.index): \(first.description): \(what)"
                out += open + ">\n"
                out += "      <failure message=\"\(escape(message))\" type=\"AssertionFailure\">\(escape(text))</failure>\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Escapes `& < > " '` and drops characters XML 1.0 cannot hold (``MarkupText/escaped(_:)``).
    package static func escape(_ s: String) -> String { MarkupText.escaped(s) }

    private static func seconds(_ s: Double) -> String {
        let thousandths = Int((s * 1000).rounded())
        let frac = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }
}
