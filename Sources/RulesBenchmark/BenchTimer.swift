import Synchronization

/// Times a closure: a warm-up, a calibration that sizes rounds to a target duration, then timed
/// rounds summarised by ``BenchStatistics``.
package struct BenchTimer: Sendable {
    /// The target duration of one round.
    package var roundTime: Duration
    /// Timed rounds.
    package var rounds: Int
    /// Fixed operations per round (no calibration) when set; used by tests to stay fast.
    package var fixedIterations: Int?

    /// Creates a timer.
    package init(roundTime: Duration = .milliseconds(20), rounds: Int = 15, fixedIterations: Int? = nil) {
        self.roundTime = roundTime
        self.rounds = Swift.max(1, rounds)
        self.fixedIterations = fixedIterations
    }

    /// A quick timer: shorter and fewer rounds.
    package static let quick = BenchTimer(roundTime: .milliseconds(5), rounds: 7)

    /// Measures `body`, which performs one operation and returns something to keep alive.
    package func measure<R>(_ body: () -> R) -> BenchStatistics {
        let clock = ContinuousClock()
        // Warm-up and calibration in one: double until a batch takes a quarter of a round, then
        // scale the batch to a whole round.
        let iterations = calibratedIterations(body, clock)
        var samples: [Double] = []
        samples.reserveCapacity(rounds)
        for _ in 0..<rounds {
            let t = clock.measure { for _ in 0..<iterations { blackHole(body()) } }
            samples.append(Self.nanoseconds(t) / Double(iterations))
        }
        return BenchStatistics(samples: samples, iterations: iterations)
    }

    /// Measures two bodies in alternating rounds, each calibrated (and warmed up) on its own
    /// first, so that a change in the machine's speed during the run affects both alike. Returns
    /// each one's statistics and the per-round ratios of the second to the first (each ratio
    /// compares two neighbouring rounds).
    package func measureAlternating<R>(_ first: () -> R, _ second: () -> R) -> (first: BenchStatistics, second: BenchStatistics, ratios: BenchStatistics) {
        let clock = ContinuousClock()
        let counts = [calibratedIterations(first, clock), calibratedIterations(second, clock)]
        var a: [Double] = [], b: [Double] = [], ratios: [Double] = []
        for _ in 0..<rounds {
            let ta = clock.measure { for _ in 0..<counts[0] { blackHole(first()) } }
            let tb = clock.measure { for _ in 0..<counts[1] { blackHole(second()) } }
            a.append(Self.nanoseconds(ta) / Double(counts[0]))
            b.append(Self.nanoseconds(tb) / Double(counts[1]))
            ratios.append(b[b.count - 1] / Swift.max(a[a.count - 1], 1e-9))
        }
        return (BenchStatistics(samples: a, iterations: counts[0]), BenchStatistics(samples: b, iterations: counts[1]),
                BenchStatistics(samples: ratios, iterations: rounds))
    }

    /// Operations per round for `body`: the fixed count, or the calibration of ``measure(_:)``
    /// (which also warms it up).
    private func calibratedIterations<R>(_ body: () -> R, _ clock: ContinuousClock) -> Int {
        if let fixedIterations {
            blackHole(body())
            return fixedIterations
        }
        var iterations = 1
        while true {
            let elapsed = clock.measure { for _ in 0..<iterations { blackHole(body()) } }
            if elapsed * 4 >= roundTime || iterations >= 1 << 26 {
                let scale = Self.nanoseconds(roundTime) / Swift.max(Self.nanoseconds(elapsed), 1)
                return Swift.min(Swift.max(Int(Double(iterations) * scale), 1), 1 << 28)
            }
            iterations *= 2
        }
    }

    /// Heap allocations per call of `body`, measured over `calls` calls after one warm-up call;
    /// nil when allocation counting is not available in this process.
    package static func allocations<R>(calls: Int = 100, _ body: () -> R) -> Double? {
        guard AllocationCounter.isAvailable else { return nil }
        blackHole(body())
        let before = AllocationCounter.count
        for _ in 0..<calls { blackHole(body()) }
        let after = AllocationCounter.count
        return Double(after - before) / Double(Swift.max(calls, 1))
    }

    /// A duration in nanoseconds.
    package static func nanoseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    }
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
package func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// The process's heap allocation counter, when the executable has one: `rules-profile` links the
/// counting allocator (the `CMallocCounter` target) and installs its counter here; `rules`, and so
/// `rules serve`, keeps the system allocator, and its `rules bench` reports no allocations.
package enum AllocationCounter {
    private static let source = Mutex<(@Sendable () -> UInt64)?>(nil)

    /// Installs the counter of the allocator the executable links (once, at start).
    package static func install(_ counter: @escaping @Sendable () -> UInt64) {
        source.withLock { $0 = counter }
    }

    /// Allocations so far (0 without a counter).
    package static var count: UInt64 { source.withLock { $0 }?() ?? 0 }

    /// Whether the counter moves (a counting allocator is linked in and installed).
    package static var isAvailable: Bool {
        guard let counter = source.withLock({ $0 }) else { return false }
        let before = counter()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        probe.deallocate()
        return counter() != before
    }
}
