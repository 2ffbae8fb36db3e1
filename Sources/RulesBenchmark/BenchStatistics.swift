/// The summary of repeated timings of one operation, in nanoseconds per operation.
package struct BenchStatistics: Sendable, Equatable {
    /// The median of the rounds.
    package var median: Double
    /// The fastest round.
    package var min: Double
    /// The slowest round.
    package var max: Double
    /// The first and third quartiles.
    package var q1: Double, q3: Double
    /// Operations per round.
    package var iterations: Int
    /// Timed rounds.
    package var rounds: Int

    /// Summarises per-round figures (ns per operation); empty input gives zeros.
    package init(samples: [Double], iterations: Int) {
        let s = samples.sorted()
        self.iterations = iterations
        self.rounds = s.count
        guard !s.isEmpty else {
            median = 0; min = 0; max = 0; q1 = 0; q3 = 0
            return
        }
        median = Self.quantile(s, 0.5)
        q1 = Self.quantile(s, 0.25)
        q3 = Self.quantile(s, 0.75)
        min = s[0]
        max = s[s.count - 1]
    }

    /// The interquartile range as a percentage of the median (0 when the median is 0).
    package var spreadPercent: Double { median > 0 ? (q3 - q1) / median * 100 : 0 }

    /// Linear interpolation between the closest ranks of sorted data.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
