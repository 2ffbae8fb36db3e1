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
    /// The queue of decisions, which requests append to.
    private let state = Mutex(State())
    /// The counts, which only the worker writes: requests never wait for it.
    private let tallies = Mutex<[String: (rules: LoadedRules, collector: CoverageCollector)]>([:])

    private struct State {
        var dropped = 0
        var pending = 0
        var waitingWeight = 0
        /// The decisions waiting, taken by the worker all at once.
        var jobs: [Job] = []
        /// The worker, when it waits for decisions.
        var waiter: CheckedContinuation<Void, Never>?
        var stopped = false
    }

    /// A recorder holding at most `capacity` waiting decisions.
    package init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Queues a decision (never blocks).
    /// Counts a decision that is not recorded (a write too large to decide again), as dropped.
    func skip() {
        state.withLock { $0.dropped += 1 }
    }

    func record(_ job: Job) {
        // One append under the lock; the worker is woken only when it waits.
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.stopped, state.pending < capacity, state.waitingWeight + job.weight <= Self.maxWaitingWeight else {
                state.dropped += 1
                return nil
            }
            state.pending += 1
            state.waitingWeight += job.weight
            state.jobs.append(job)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The decisions waiting, all of them, once there is one (empty once stopped).
    private func nextBatch() async -> [Job] {
        while true {
            let batch = state.withLock { state -> [Job]? in
                if state.stopped { return [] }
                guard !state.jobs.isEmpty else { return nil }
                defer { state.jobs = [] }
                return state.jobs
            }
            if let batch { return batch }
            // Woken by a decision, by stop(), or by the task's cancellation (shutdown).
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        if state.stopped || !state.jobs.isEmpty || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
            if Task.isCancelled { return [] }
        }
    }

    /// Counts queued decisions until the task is cancelled.
    package func run() async {
        // The cheap tracer (`rules test`'s): each rule's outcome and the booleans of its
        // expressions, nothing rendered. The evaluator and the tracer's storage are kept from one
        // decision to the next.
        var scratch = TracingScratch<RuleCoverageTracer>()
        while !Task.isCancelled {
            let batch = await nextBatch()
            if batch.isEmpty { return }
            var weight = 0
            for job in batch {
                _ = job.rules.engine.decide(job.operation, on: job.root, auth: job.auth, now: job.now,
                                            tracing: &scratch, makeTracer: RuleCoverageTracer.init)
                scratch.withTracer { tracer in
                    tallies.withLock { tallies in
                        // In place: the collector is not copied out of the dictionary.
                        if tallies[job.namespace]?.rules !== job.rules {
                            var collector = CoverageCollector()
                            collector.register(job.rules)
                            tallies[job.namespace] = (job.rules, collector)
                        }
                        tallies[job.namespace]!.collector.record(job.rules, tracer: tracer)
                    }
                    tracer.reset()
                }
                weight += job.weight
            }
            // Counted before they stop being pending: a reader that sees none pending sees them all.
            state.withLock { state in
                state.pending -= batch.count
                state.waitingWeight -= weight
            }
        }
    }

    /// Stops the background task's loop.
    package func stop() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stopped = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

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
        // The waiting decisions first: those no longer waiting are in the counts read after.
        let (dropped, pending) = state.withLock { ($0.dropped, $0.pending) }
        let counted = tallies.withLock { tallies in tallies[namespace].flatMap { $0.rules === rules ? $0.collector : nil } }
        if let counted { return (counted, dropped, pending) }
        var collector = CoverageCollector()
        collector.register(rules)
        return (collector, dropped, pending)
    }
}
