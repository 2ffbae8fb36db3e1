import Testing
@testable import RulesBenchmark

@Suite struct BenchStatisticsTests {
    @Test func quartilesAndMedian() {
        let s = BenchStatistics(samples: [5, 1, 4, 2, 3], iterations: 10)
        #expect(s.median == 3)
        #expect(s.q1 == 2)
        #expect(s.q3 == 4)
        #expect(s.min == 1)
        #expect(s.max == 5)
        #expect(s.rounds == 5)
        #expect(s.iterations == 10)
        #expect(abs(s.spreadPercent - 200.0 / 3) < 1e-9)
    }

    @Test func evenCountInterpolates() {
        let s = BenchStatistics(samples: [1, 2, 3, 4], iterations: 1)
        #expect(s.median == 2.5)
    }

    @Test func emptyIsZero() {
        let s = BenchStatistics(samples: [], iterations: 0)
        #expect(s.median == 0 && s.spreadPercent == 0 && s.rounds == 0)
    }

    @Test func fixedIterationsRunTheBodyAsOften() {
        var calls = 0
        let timer = BenchTimer(roundTime: .zero, rounds: 3, fixedIterations: 4)
        let s = timer.measure { calls += 1; return calls }
        // One warm-up call, then three rounds of four.
        #expect(calls == 13)
        #expect(s.iterations == 4 && s.rounds == 3)
    }

    /// Alternating rounds: each body is warmed up once and then runs its rounds, the two taking
    /// turns, and there is one ratio per pair of rounds.
    @Test func alternatingRoundsTakeTurns() {
        var order: [Character] = []
        let timer = BenchTimer(roundTime: .zero, rounds: 3, fixedIterations: 2)
        let (a, b, ratios) = timer.measureAlternating({ order.append("a"); return 0 }, { order.append("b"); return 1 })
        #expect(String(order) == "ab" + "aabb" + "aabb" + "aabb")
        #expect(a.rounds == 3 && b.rounds == 3 && ratios.rounds == 3)
        #expect(a.iterations == 2 && b.iterations == 2)
        #expect(ratios.median > 0)
    }
}
