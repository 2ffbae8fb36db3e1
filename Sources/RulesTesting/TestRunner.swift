import DatabaseRules
import RulesCoverage
import RulesRuntime

/// Runs loaded specs: each test from a fresh tree, its steps in order on one state.
package struct TestRunner {
    /// Only tests whose name contains this text run (all when nil).
    package var filter: String?
    /// The default clock (ms since the epoch), fixed for the run.
    package var startTime: Double
    /// Coverage, recorded when present.
    package var coverage: CoverageCollector?
    /// Called after each test with the number of tests run and the number to run, for progress
    /// on long runs.
    package var progress: ((_ done: Int, _ total: Int) -> Void)?
    /// Decisions of passing steps reuse this storage; only a failing step is decided again with
    /// an explanation.
    private var scratch = DecisionScratch()
    /// With coverage, every step is decided with this storage and its tracer.
    private var tracing = TracingScratch<RuleCoverageTracer>()
    /// The starting tree of the spec being run, built once from its `data` for each clock (tests
    /// share it: trees are immutable).
    private var specTree: (path: String, clock: Double, root: DataNode?)?

    /// The starting tree of the last spec run, which the runner keeps.
    var lastSpecTree: DataNode? { specTree?.root }

    /// Creates a runner.
    package init(filter: String? = nil, startTime: Double, coverage: CoverageCollector? = nil) {
        self.filter = filter
        self.startTime = startTime
        self.coverage = coverage
    }

    /// Runs every test of every spec (that the filter keeps).
    package mutating func run(_ specs: [TestSpec]) -> TestRunResult {
        var results: [TestResult] = []
        // The tests the filter keeps, by index (the tests themselves are not copied).
        let selected: [[Int]] = specs.map { spec in
            guard let filter, !filter.isEmpty else { return Array(spec.tests.indices) }
            return spec.tests.indices.filter { spec.tests[$0].name.contains(filter) }
        }
        let total = selected.reduce(0) { $0 + $1.count }
        results.reserveCapacity(total)
        for (s, spec) in specs.enumerated() {
            coverage?.register(spec.rules)
            // `only` on any test of a file leaves the file's other tests out.
            let focused = spec.tests.contains { $0.only }
            for index in selected[s] {
                if spec.tests[index].skip || (focused && !spec.tests[index].only) {
                    results.append(TestResult(file: spec.path, name: spec.tests[index].name, milliseconds: 0, steps: [],
                                              line: spec.tests[index].location.line, skipped: true))
                } else {
                    results.append(run(spec.tests[index], in: spec))
                }
                progress?(results.count, total)
            }
            // A spec's starting tree is let go once its tests have run; the last one stays with
            // the runner (a command that exits next need not free it).
            if s < specs.count - 1 { specTree = nil }
        }
        return TestRunResult(tests: results)
    }

    /// Runs one test.
    package mutating func run(_ test: TestCase, in spec: TestSpec) -> TestResult {
        let started = ContinuousClock.now
        var replay = TestReplay(test, in: spec, startTime: startTime, specRoot: sharedRoot(test, in: spec))
        var steps: [StepResult] = []
        steps.reserveCapacity(test.steps.count)
        let engine = spec.rules.engine
        for (i, step) in test.steps.enumerated() {
            let (operation, now) = replay.operation(step)
            let before = replay.root
            let decision: Decision
            if coverage != nil {
                decision = engine.decide(operation, on: before, auth: step.auth, now: now, tracing: &tracing, makeTracer: RuleCoverageTracer.init)
                tracing.withTracer { tracer in
                    coverage?.record(spec.rules, tracer: tracer)
                    tracer.reset()
                }
            } else {
                decision = engine.decide(operation, on: before, auth: step.auth, now: now, scratch: &scratch)
            }
            replay.apply(decision, of: operation)
            let passed = decision.allowed == step.expectAllow
            // Explanations are rendered only where they are shown or checked: the same decision
            // again, on the same tree, with every rule's values recorded.
            let explanation = passed && !step.needsExplanation
                ? nil : engine.decide(operation, on: before, auth: step.auth, now: now, explain: true).explanation
            let problems = Self.problems(step, decision, explanation, before: before, after: replay.root, now: now)
            // The explanation is kept for a failed step only.
            steps.append(StepResult(index: i + 1, step: step, actualAllow: decision.allowed, deferredReason: decision.deferredReason,
                                    problems: problems, explanation: passed && problems.isEmpty ? nil : explanation))
        }
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return TestResult(file: spec.path, name: test.name, milliseconds: ms, steps: steps, line: test.location.line)
    }

    /// The step's expectations besides allow/deny that did not hold.
    static func problems(_ step: TestStep, _ decision: Decision, _ explanation: Explanation?, before: DataNode?, after: DataNode?, now: Double) -> [String] {
        var out: [String] = []
        if let rule = step.expectRule {
            let decided = explanation?.decisive?.rulePath
            if decided != rule { out.append("expected the deciding rule \(rule), got \(decided ?? "none")") }
        }
        if let text = step.expectReason {
            if decision.allowed {
                out.append("expected a denial whose reason contains '\(text)', but the operation was allowed")
            } else if !(decision.reason ?? "").contains(text) && !(explanation?.trace ?? "").contains(text) {
                out.append("expected the reason to contain '\(text)'; the reason is: \(decision.reason ?? "none")")
            }
        }
        if let expected = step.expectValue, case .read(let path, _) = step.operation {
            if !decision.allowed {
                out.append("expected the read to return \(Self.json(expected, now: now)), but it was denied")
            } else if let keys = try? DataPath(validating: path).keys {
                let actual = Self.json(before?.descendant(keys))
                let wanted = Self.json(expected, now: now)
                if actual != wanted { out.append("the read returned \(actual), expected \(wanted)") }
            }
        }
        for (path, value) in step.expectData {
            let actual = Self.json(after?.descendant(path.keys))
            let wanted = Self.json(value, now: now)
            if actual != wanted { out.append("after the step \(path) holds \(actual), expected \(wanted)") }
        }
        return out
    }

    /// A stored value as compact JSON with sorted keys, priorities left out; `null` for nothing.
    static func json(_ node: DataNode?) -> String {
        node?.exportJSON(includePriority: false, sortedKeys: true) ?? "null"
    }

    /// An expected value as it would be stored (server values resolved at the step's time).
    static func json(_ value: DataInput, now: Double) -> String {
        json(value.resolved(now: now, existing: nil))
    }

    /// The spec's starting tree for a test that has no `data` of its own, built once per clock.
    private mutating func sharedRoot(_ test: TestCase, in spec: TestSpec) -> DataNode?? {
        guard test.data == nil, let data = spec.data else { return nil }
        let clock = TestReplay.clock(test, in: spec, startTime: startTime)
        if let cached = specTree, cached.path == spec.path, cached.clock == clock { return .some(cached.root) }
        let root = data.resolved(now: clock, existing: nil)
        specTree = (spec.path, clock, root)
        return .some(root)
    }
}
