import DatabaseRules
import Foundation
import Testing

/// Many mixed operations decided from 8 threads on one compiled ruleset agree, verdict by
/// verdict (allowed, denial reason, explanation, resulting tree size), with a sequential run.
/// The default count keeps a debug run to a couple of seconds; `RULES_LOAD_OPERATIONS=1000000`
/// runs the full million (in release).
@Suite struct LoadTests {
    static let operations = ProcessInfo.processInfo.environment["RULES_LOAD_OPERATIONS"].flatMap { Int($0) } ?? 4_000
    static let threads = 8

    /// What one decision gave, compactly: the verdict and a hash of everything else it said.
    struct Outcome: Equatable {
        var allowed: Bool
        var digest: Int
    }

    static func outcome(_ rules: Ruleset, _ workload: LoadWorkload, _ i: Int) -> Outcome {
        let (op, db, auth, explain) = workload.operation(i)
        let d = rules.decide(op, on: db, auth: auth, now: LoadWorkload.now, explain: explain)
        var h = Hasher()
        h.combine(d.reason)
        h.combine(d.explanation?.trace)
        h.combine(d.newRoot?.count)
        return Outcome(allowed: d.allowed, digest: h.finalize())
    }

    @Test func eightThreadsAgreeWithASequentialRunOnEveryVerdict() throws {
        let rules = try BlogExample.ruleset()
        let workload = try LoadWorkload(rules: rules)
        let n = Self.operations

        let start = Date()
        let sequential = (0..<n).map { Self.outcome(rules, workload, $0) }
        let sequentialTime = Date().timeIntervalSince(start)

        // Each thread writes its own slice (operations t, t+8, ...); nothing is shared but the
        // ruleset, the workload and the databases.
        let parallelStart = Date()
        let slices = ThreadSlices(count: Self.threads)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { t in
            var out: [Outcome] = []
            out.reserveCapacity(n / Self.threads + 1)
            for i in stride(from: t, to: n, by: Self.threads) { out.append(Self.outcome(rules, workload, i)) }
            slices.store(out, at: t)
        }
        let parallelTime = Date().timeIntervalSince(parallelStart)

        var mismatches = 0
        var firstMismatch: Int?
        for t in 0..<Self.threads {
            let slice = slices.slice(t)
            #expect(slice.count == (n - t + Self.threads - 1) / Self.threads)
            for (j, o) in slice.enumerated() where sequential[t + j * Self.threads] != o {
                mismatches += 1
                if firstMismatch == nil { firstMismatch = t + j * Self.threads }
            }
        }
        let allowed = sequential.filter(\.allowed).count
        print("load: \(n) operations, \(allowed) allowed, sequential \(String(format: "%.2f", sequentialTime)) s, \(Self.threads) threads \(String(format: "%.2f", parallelTime)) s, mismatches \(mismatches)")
        #expect(mismatches == 0, "first mismatch at operation \(firstMismatch ?? -1)")
        // The mix exercises both verdicts in quantity.
        #expect(allowed > n / 10 && allowed < n - n / 10, "allowed \(allowed) of \(n)")
    }
}

/// Per-thread result slots, each written by exactly one thread and read after all have finished.
final class ThreadSlices: @unchecked Sendable {
    private var slices: [[LoadTests.Outcome]]
    private let lock = NSLock()
    init(count: Int) { slices = Array(repeating: [], count: count) }
    func store(_ s: [LoadTests.Outcome], at t: Int) { lock.withLock { slices[t] = s } }
    func slice(_ t: Int) -> [LoadTests.Outcome] { lock.withLock { slices[t] } }
}
