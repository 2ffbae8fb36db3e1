import CMallocCounter

/// Times a closure: a warm-up, a calibration that sizes rounds to a target duration, then timed
/// rounds summarised by ``BenchStatistics``.
public struct BenchTimer: Sendable {
    /// The target duration of one round.
    public var roundTime: Duration
    /// Timed rounds.
    public var rounds: Int
    /// Fixed operations per round (no calibration) when set; used by tests to stay fast.
    public var fixedIterations: Int?

    /// Creates a timer.
    public init(roundTime: Duration = .milliseconds(20), rounds: Int = 15, fixedIterations: Int? = nil) {
        self.roundTime = roundTime
        self.rounds = Swift.max(1, rounds)
        self.fixedIterations = fixedIterations
    }

    /// A quick timer: shorter and fewer rounds.
    public static let quick = BenchTimer(roundTime: .milliseconds(5), rounds: 7)

    /// Measures `body`, which performs one operation and returns something to keep alive.
    public func measure<R>(_ body: () -> R) -> BenchStatistics {
        let clock = ContinuousClock()
        var iterations = fixedIterations ?? 1
        if fixedIterations == nil {
            // Warm-up and calibration in one: double until a batch takes a quarter of a round,
            // then scale the batch to a whole round.
            var elapsed = Duration.zero
            while true {
                elapsed = clock.measure { for _ in 0..<iterations { blackHole(body()) } }
                if elapsed * 4 >= roundTime || iterations >= 1 << 26 { break }
                iterations *= 2
            }
            let scale = Self.nanoseconds(roundTime) / Swift.max(Self.nanoseconds(elapsed), 1)
            iterations = Swift.min(Swift.max(Int(Double(iterations) * scale), 1), 1 << 28)
        } else {
            blackHole(body())
        }
        var samples: [Double] = []
        samples.reserveCapacity(rounds)
        for _ in 0..<rounds {
            let t = clock.measure { for _ in 0..<iterations { blackHole(body()) } }
            samples.append(Self.nanoseconds(t) / Double(iterations))
        }
        return BenchStatistics(samples: samples, iterations: iterations)
    }

    /// Heap allocations per call of `body`, measured over `calls` calls after one warm-up call;
    /// nil when allocation counting is not available in this process.
    public static func allocations<R>(calls: Int = 100, _ body: () -> R) -> Double? {
        guard AllocationCounter.isAvailable else { return nil }
        blackHole(body())
        let before = AllocationCounter.count
        for _ in 0..<calls { blackHole(body()) }
        let after = AllocationCounter.count
        return Double(after - before) / Double(Swift.max(calls, 1))
    }

    /// A duration in nanoseconds.
    public static func nanoseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    }
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
public func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// The process's heap allocation counter (see the CMallocCounter target).
public enum AllocationCounter {
    /// Allocations so far.
    public static var count: UInt64 { rules_malloc_count() }

    /// Whether the counter moves (the counting allocator is linked in).
    public static var isAvailable: Bool {
        let before = rules_malloc_count()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        probe.deallocate()
        return rules_malloc_count() != before
    }
}
