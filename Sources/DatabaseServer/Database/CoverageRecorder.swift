import DatabaseRules
import RulesCoverage
import RulesSyntax
import Synchronization

/// Rule coverage since the server started: for each rule of each namespace's rules, how often
/// it was evaluated and how often it was true, false or an error (the emulator's coverage
/// report, from our engine).
///
/// Requests do not wait for it: each decision is queued with the snapshot it was made on (trees
/// are immutable, so deciding again later gives the same result) and a background task decides
/// it again with a tracer. When the queue is full (``capacity`` decisions waiting, or
/// ``maxWaitingWeight`` nodes of written values), decisions are counted as dropped instead; so
/// is a write too large to be decided again (``OperationWeight/recordedCap``). New rules in a
/// namespace start its coverage afresh.
package final class CoverageRecorder: Sendable {
    /// One decision to account for.
    struct Job: Sendable {
        let namespace: String
        let rules: LoadedRules
        let operation: DatabaseOperation
        let root: DataNode?
        let auth: AuthValue
        let now: Double
        /// The nodes of the values it writes (``OperationWeight``).
        var weight = 0
    }

    /// Nodes of written values the waiting decisions may hold together.
    static let maxWaitingWeight = 1_000_000

    /// Decisions that may wait to be counted.
    package let capacity: Int
    private let queue: AsyncStream<Job>.Continuation
    private let stream: AsyncStream<Job>
    private let state = Mutex(State())

    private struct State {
        var namespaces: [String: (rules: LoadedRules, collector: CoverageCollector)] = [:]
        var dropped = 0
        var pending = 0
        var waitingWeight = 0
    }

    /// A recorder holding at most `capacity` waiting decisions.
    package init(capacity: Int = 10_000) {
        self.capacity = capacity
        (stream, queue) = AsyncStream<Job>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
    }

    /// Queues a decision (never blocks).
    /// Counts a decision that is not recorded (a write too large to decide again), as dropped.
    func skip() {
        state.withLock { $0.dropped += 1 }
    }

    func record(_ job: Job) {
        let admitted = state.withLock { state in
            guard state.waitingWeight + job.weight <= Self.maxWaitingWeight else {
                state.dropped += 1
                return false
            }
            state.pending += 1
            state.waitingWeight += job.weight
            return true
        }
        guard admitted else { return }
        if case .dropped = queue.yield(job) {
            state.withLock { $0.pending -= 1; $0.dropped += 1; $0.waitingWeight -= job.weight }
        }
    }

    /// Counts queued decisions until the task is cancelled.
    package func run() async {
        for await job in stream {
            if Task.isCancelled { break }
            var tracer = CoverageTracer()
            let decision = job.rules.engine.decide(job.operation, on: job.root, auth: job.auth, now: job.now, explain: true, tracer: &tracer)
            state.withLock { state in
                state.pending -= 1
                state.waitingWeight -= job.weight
                guard let explanation = decision.explanation else { return }
                var entry = state.namespaces[job.namespace]
                if entry == nil || entry!.rules !== job.rules {
                    var collector = CoverageCollector()
                    collector.register(job.rules)
                    entry = (job.rules, collector)
                }
                entry!.collector.record(job.rules, explanation: explanation, values: tracer.evaluations)
                state.namespaces[job.namespace] = entry
            }
        }
    }

    /// Stops the background task's loop.
    package func stop() { queue.finish() }

    /// Decisions still waiting to be counted.
    package var pending: Int { state.withLock { $0.pending } }

    /// The coverage of a namespace's current rules as JSON: the `rules test --coverage-json`
    /// format plus `namespace`, `dropped` and `pending` counts.
    package func json(namespace: String, rules: LoadedRules) -> String {
        let (collector, dropped, pending) = counts(namespace: namespace, rules: rules)
        var members: [(String, JSONText)] = [("namespace", .string(namespace)), ("dropped", .int(dropped)), ("pending", .int(pending))]
        if case .object(let report) = CoverageReporter.document(collector) { members += report }
        return JSONText.object(members).rendered(indent: 2, inlineFrom: 4)
    }

    /// The coverage of a namespace's current rules (zero counts when none were counted for
    /// them yet), with the decisions dropped and still waiting.
    package func counts(namespace: String, rules: LoadedRules) -> (collector: CoverageCollector, dropped: Int, pending: Int) {
        state.withLock { state in
            if let entry = state.namespaces[namespace], entry.rules === rules {
                return (entry.collector, state.dropped, state.pending)
            }
            var collector = CoverageCollector()
            collector.register(rules)
            return (collector, state.dropped, state.pending)
        }
    }
}
