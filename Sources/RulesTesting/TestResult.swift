import RulesRuntime

/// The outcome of running spec files.
public struct TestRunResult: Sendable {
    /// One entry per test, in run order.
    public var tests: [TestResult]

    /// Creates a result.
    public init(tests: [TestResult]) { self.tests = tests }

    /// Steps whose expectation held.
    public var passedSteps: Int { tests.reduce(0) { $0 + $1.steps.count { $0.passed } } }
    /// Steps whose expectation did not hold.
    public var failedSteps: Int { tests.reduce(0) { $0 + $1.steps.count { !$0.passed } } }
    /// Tests skipped (`skip: true`, or left out by another test's `only: true`).
    public var skippedTests: Int { tests.count { $0.skipped } }
    /// Tests run whose every step passed.
    public var passedTests: Int { tests.count { !$0.skipped && $0.passed } }
    /// Tests with a failed step.
    public var failedTests: Int { tests.count { !$0.passed } }
    /// True when every step passed.
    public var allPassed: Bool { failedSteps == 0 }
}

/// The outcome of one test.
public struct TestResult: Sendable {
    /// The spec file.
    public var file: String
    /// The test's name.
    public var name: String
    /// Wall-clock time for the whole test, in ms.
    public var milliseconds: Double
    /// The steps run (all of them; a failing step does not stop the test).
    public var steps: [StepResult]
    /// The line where the test starts in its file.
    public var line: Int = 1
    /// True when the test was not run (`skip`, or another test's `only`).
    public var skipped = false

    /// Creates a result.
    public init(file: String, name: String, milliseconds: Double, steps: [StepResult], line: Int = 1, skipped: Bool = false) {
        self.file = file
        self.name = name
        self.milliseconds = milliseconds
        self.steps = steps
        self.line = line
        self.skipped = skipped
    }

    /// True when every step passed.
    public var passed: Bool { steps.allSatisfy(\.passed) }
}

/// The outcome of one step.
public struct StepResult: Sendable {
    /// 1-based position in the test.
    public var index: Int
    /// What was done, e.g. `update / as alice`.
    public var description: String {
        get { descriptionText ?? step.map { "\($0.operation.summary) as \($0.caller)" } ?? "" }
        set { descriptionText = newValue }
    }
    /// The description as given or set.
    private var descriptionText: String?
    /// The step run, whose description is written out when read (unless one was given).
    private var step: TestStep?
    /// True when the step expected the operation to be allowed.
    public var expectedAllow: Bool
    /// True when the engine allowed it.
    public var actualAllow: Bool
    /// The engine's one-line reason for a denial.
    public var reason: String? {
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
    public var explanation: Explanation?
    /// Expectations besides allow/deny that did not hold (`expectData`, `expectValue`,
    /// `expectRule`, `expectReason`), one message each.
    public var problems: [String] = []

    /// Creates a result.
    public init(index: Int, description: String, expectedAllow: Bool, actualAllow: Bool, reason: String?, explanation: Explanation?) {
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
    public var passed: Bool { expectedAllow == actualAllow && problems.isEmpty }
    /// `allow` or `deny`.
    public var expected: String { expectedAllow ? "allow" : "deny" }
    /// `allow` or `deny`.
    public var actual: String { actualAllow ? "allow" : "deny" }
}
