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

    /// Creates a result.
    public init(file: String, name: String, milliseconds: Double, steps: [StepResult]) {
        self.file = file
        self.name = name
        self.milliseconds = milliseconds
        self.steps = steps
    }

    /// True when every step passed.
    public var passed: Bool { steps.allSatisfy(\.passed) }
}

/// The outcome of one step.
public struct StepResult: Sendable {
    /// 1-based position in the test.
    public var index: Int
    /// What was done, e.g. `update / as alice`.
    public var description: String
    /// True when the step expected the operation to be allowed.
    public var expectedAllow: Bool
    /// True when the engine allowed it.
    public var actualAllow: Bool
    /// The engine's one-line reason for a denial.
    public var reason: String?
    /// The explanation, for failed steps only.
    public var explanation: Explanation?

    /// Creates a result.
    public init(index: Int, description: String, expectedAllow: Bool, actualAllow: Bool, reason: String?, explanation: Explanation?) {
        self.index = index
        self.description = description
        self.expectedAllow = expectedAllow
        self.actualAllow = actualAllow
        self.reason = reason
        self.explanation = explanation
    }

    /// True when the expectation held.
    public var passed: Bool { expectedAllow == actualAllow }
    /// `allow` or `deny`.
    public var expected: String { expectedAllow ? "allow" : "deny" }
    /// `allow` or `deny`.
    public var actual: String { actualAllow ? "allow" : "deny" }
}
