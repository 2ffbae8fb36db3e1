import DatabaseRules
import RulesRuntime

/// Runs loaded specs: each test from a fresh tree, its steps in order on one state.
public struct TestRunner {
    /// Only tests whose name contains this text run (all when nil).
    public var filter: String?
    /// The default clock (ms since the epoch), fixed for the run.
    public var startTime: Double
    /// Coverage, recorded when present.
    public var coverage: CoverageCollector?

    /// Creates a runner.
    public init(filter: String? = nil, startTime: Double, coverage: CoverageCollector? = nil) {
        self.filter = filter
        self.startTime = startTime
        self.coverage = coverage
    }

    /// Runs every test of every spec (that the filter keeps).
    public mutating func run(_ specs: [TestSpec]) -> TestRunResult {
        var results: [TestResult] = []
        for spec in specs {
            coverage?.register(spec.rules)
            for test in spec.tests {
                if let filter, !filter.isEmpty, !test.name.contains(filter) { continue }
                results.append(run(test, in: spec))
            }
        }
        return TestRunResult(tests: results)
    }

    /// Runs one test.
    public mutating func run(_ test: TestCase, in spec: TestSpec) -> TestResult {
        let started = ContinuousClock.now
        var replay = TestReplay(test, in: spec, startTime: startTime)
        var steps: [StepResult] = []
        for (i, step) in test.steps.enumerated() {
            let (operation, now) = replay.operation(step)
            var tracer = CoverageTracer()
            let decision = spec.rules.engine.decide(operation, on: replay.root, auth: step.auth, now: now, explain: true, tracer: &tracer)
            replay.apply(decision, of: operation)
            if let explanation = decision.explanation {
                coverage?.record(spec.rules, explanation: explanation, values: tracer.evaluations)
            }
            let passed = decision.allowed == step.expectAllow
            steps.append(StepResult(
                index: i + 1, description: "\(step.operation.summary) as \(step.caller)", expectedAllow: step.expectAllow,
                actualAllow: decision.allowed, reason: decision.reason, explanation: passed ? nil : decision.explanation))
        }
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return TestResult(file: spec.path, name: test.name, milliseconds: ms, steps: steps)
    }
}
