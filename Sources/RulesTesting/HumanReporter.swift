/// The text report: one line per test, details under each failed step, and the closing line
/// `N passed, M failed` counting steps.
package struct HumanReporter: Sendable {
    /// ANSI colours on ✓/✗.
    package var colors: Bool
    /// Show each test's time (off for stable golden output).
    package var showTimes: Bool

    /// Creates a reporter.
    package init(colors: Bool = false, showTimes: Bool = true) {
        self.colors = colors
        self.showTimes = showTimes
    }

    private func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The test lines, without the closing summary line.
    package func body(_ result: TestRunResult) -> String {
        var out = ""
        // Room for every test's line, so that the text is not copied as it grows.
        out.reserveCapacity(result.tests.reduce(0) { $0 + $1.name.utf8.count + 24 })
        var currentFile: String?
        // The marks are made once; each line is appended piece by piece (a run may have tens of
        // thousands of lines).
        let passedMark = paint("✓", "1;32"), failedMark = paint("✗", "1;31")
        for test in result.tests {
            if test.file != currentFile {
                out += test.file + "\n"
                currentFile = test.file
            }
            if test.skipped {
                out += "  \(paint("-", "1;33")) \(test.name) (skipped)\n"
                continue
            }
            out += "  "
            out += test.passed ? passedMark : failedMark
            out += " "
            out += test.name
            if showTimes {
                out += " ("
                Self.appendMilliseconds(test.milliseconds, to: &out)
                out += " ms)"
            }
            out += "\n"
            for step in test.steps where !step.passed {
                out += "      step \(step.index): \(step.description)\n"
                if step.expectedAllow != step.actualAllow {
                    out += "        expected \(step.expected), got \(step.actual)\n"
                }
                for problem in step.problems { out += "        \(problem)\n" }
                if let reason = step.reason { out += "        reason: \(reason)\n" }
                if let explanation = step.explanation {
                    if let d = explanation.decisive {
                        out += "        deciding rule: \(d.rulePath) at \(d.position) (line \(d.location.line))\n"
                    }
                    for line in explanation.trace.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                        out += "          " + line + "\n"
                    }
                }
            }
        }
        return out
    }

    /// `N passed, M failed`, counting steps, then `, K tests skipped` when tests were skipped.
    package func summary(_ result: TestRunResult) -> String {
        let skipped = result.skippedTests
        return "\(result.passedSteps) passed, \(result.failedSteps) failed"
            + (skipped == 0 ? "" : ", \(skipped) \(skipped == 1 ? "test" : "tests") skipped")
    }

    /// The whole report, ending with the summary line.
    package func report(_ result: TestRunResult) -> String {
        body(result) + summary(result) + "\n"
    }

    /// Appends `ms` with one decimal, e.g. `12.5`.
    static func appendMilliseconds(_ ms: Double, to out: inout String) {
        let tenths = Int((ms * 10).rounded())
        out += String(tenths / 10)
        out += "."
        out += String(tenths % 10)
    }
}
