import RulesRuntime

/// The outcome of running spec files.
package struct TestRunResult: Sendable {
    /// One entry per test, in run order.
    package var tests: [TestResult]

    /// Creates a result.
    package init(tests: [TestResult]) { self.tests = tests }

    /// Steps whose expectation held.
    package var passedSteps: Int { tests.reduce(0) { $0 + $1.steps.count { $0.passed } } }
    /// Steps whose expectation did not hold.
    package var failedSteps: Int { tests.reduce(0) { $0 + $1.steps.count { !$0.passed } } }
    /// Tests skipped (`skip: true`, or left out by another test's `only: true`).
    package var skippedTests: Int { tests.count { $0.skipped } }
    /// Tests run whose every step passed.
    package var passedTests: Int { tests.count { !$0.skipped && $0.passed } }
    /// Tests with a failed step.
    package var failedTests: Int { tests.count { !$0.passed } }
    /// True when every step passed.
    package var allPassed: Bool { failedSteps == 0 }
}

/// The outcome of one test.
package struct TestResult: Sendable {
    /// The spec file.
    package var file: String
    /// The test's name.
    package var name: String
    /// Wall-clock time for the whole test, in ms.
    package var milliseconds: Double
    /// The steps run (all of them; a failing step does not stop the test).
    package var steps: [StepResult]
    /// The line where the test starts in its file.
    package var line: Int = 1
    /// True when the test was not run (`skip`, or another test's `only`).
    package var skipped = false

    /// Creates a result.
    package init(file: String, name: String, milliseconds: Double, steps: [StepResult], line: Int = 1, skipped: Bool = false) {
        self.file = file
        self.name = name
        self.milliseconds = milliseconds
        self.steps = steps
        self.line = line
        self.skipped = skipped
    }

    /// True when every step passed.
    package var passed: Bool { steps.allSatisfy(\.passed) }
}

/// The outcome of one step.
package struct StepResult: Sendable {
    /// 1-based position in the test.
    package var index: Int
    /// What was done, e.g. `update / as alice`.
    package var description: String {
        get { descriptionText ?? step.map { "\($0.operation.summary) as \($0.caller)" } ?? "" }
        set { descriptionText = newValue }
    }
    /// The description as given or set.
    private var descriptionText: String?
    /// The step run, whose description is written out when read (unless one was given).
    private var step: TestStep?
    /// True when the step expected the operation to be allowed.
    package var expectedAllow: Bool
    /// True when the engine allowed it.
    package var actualAllow: Bool
    /// The engine's one-line reason for a denial.
    package var reason: String? {
        get {
            switch reasonSource {
            case .given(let text): text
            case .decision(let deferred): deferred.text
            }
        }
        set { reasonSource = .given(newValue) }
    }
    /// Where ``reason`` comes from: given (or set), or the decision's, written out when read.
    private var reasonSource: ReasonSource

    private enum ReasonSource: Sendable {
        case given(String?)
        case decision(DeferredReason)
    }
    /// The explanation, for failed steps only.
    package var explanation: Explanation?
    /// Expectations besides allow/deny that did not hold (`expectData`, `expectValue`,
    /// `expectRule`, `expectReason`), one message each.
    package var problems: [String] = []

    /// Creates a result.
    package init(index: Int, description: String, expectedAllow: Bool, actualAllow: Bool, reason: String?, explanation: Explanation?) {
        self.index = index
        self.descriptionText = description
        self.expectedAllow = expectedAllow
        self.actualAllow = actualAllow
        self.reasonSource = .given(reason)
        self.explanation = explanation
    }

    /// Creates the result of `step`, whose description and reason (the decision's) are
    /// written out only when read: a report shows them for failed steps only.
    init(index: Int, step: TestStep, actualAllow: Bool, deferredReason: DeferredReason, problems: [String], explanation: Explanation?) {
        self.index = index
        self.step = step
        self.expectedAllow = step.expectAllow
        self.actualAllow = actualAllow
        self.reasonSource = .decision(deferredReason)
        self.problems = problems
        self.explanation = explanation
    }

    /// True when every expectation held.
    package var passed: Bool { expectedAllow == actualAllow && problems.isEmpty }
    /// `allow` or `deny`.
    package var expected: String { expectedAllow ? "allow" : "deny" }
    /// `allow` or `deny`.
    package var actual: String { actualAllow ? "allow" : "deny" }
}
