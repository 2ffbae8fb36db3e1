import RulesTestSupport
import Foundation
import Testing

/// The VM and the reference interpreter must agree on every generated case (issue #6). The
/// default run is a fixed seed with a few thousand cases; `RULES_PROPERTY_CASES=N` and
/// `RULES_PROPERTY_SEED=S` run more. A disagreement is shrunk and printed ready to paste into
/// `RegressionTests.swift`.
@Suite struct DifferentialTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed: UInt64 = environment["RULES_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
    static let cases: Int = environment["RULES_PROPERTY_CASES"].flatMap { Int($0) } ?? 2000

    @Test func expressionsAgreeWithTheReference() {
        var g = SplitMix64(seed: Self.seed)
        var rejected: [String: Int] = [:]
        var outcomes: [String: Int] = [:]
        var failures = 0
        for _ in 0..<Self.cases {
            let c = ExpressionCase.random(&g)
            let (ruleset, error) = c.compile()
            guard let ruleset else {
                rejected[error ?? "?", default: 0] += 1
                if rejected.count < 12 { print("rejected: \(c.expression.render()): \(error ?? "")") }
                continue
            }
            let vm = c.vmVerdict(ruleset)
            let reference = c.referenceVerdict()
            outcomes[vm.description, default: 0] += 1
            if vm != reference {
                failures += 1
                if failures > 3 { continue }
                let small = Shrinker.shrink(c, smaller: { $0.smaller() }, fails: { $0.disagrees })
                Issue.record("VM and reference disagree; shrunk case:\n\(small.report)")
            }
        }
        let rejectedCount = rejected.values.reduce(0, +)
        print("expression cases: \(Self.cases), rejected by the checker: \(rejectedCount), outcomes: \(outcomes), disagreements: \(failures)")
        for (message, n) in rejected.sorted(by: { $0.value > $1.value }).prefix(5) { print("  rejected \(n)x: \(message)") }
        // Generated expressions are well typed: the checker should accept nearly all of them.
        #expect(rejectedCount * 20 <= Self.cases, "rejected: \(rejected)")
        // The generator reaches all three results.
        #expect(outcomes.keys.count >= 3, "\(outcomes)")
    }

    @Test func operationsAgreeWithTheReference() {
        var g = SplitMix64(seed: Self.seed ^ 0xA5A5)
        var rejected = 0
        var allowed = 0
        var failures = 0
        let count = max(Self.cases / 2, 1)
        for _ in 0..<count {
            let c = OperationCase.random(&g)
            guard let v = c.verdicts() else {
                rejected += 1
                if rejected < 4 { print("rejected: \(c.rules.rendered(full: false).document)") }
                continue
            }
            if v.vm { allowed += 1 }
            if v.vm != v.reference || v.vm != v.explained || !v.sameTree {
                failures += 1
                if failures > 3 { continue }
                let small = Shrinker.shrink(c, smaller: { $0.smaller() }, fails: { $0.disagrees })
                Issue.record("VM engine and reference engine disagree; shrunk case:\n\(small.report)")
            }
        }
        print("operation cases: \(count), rejected: \(rejected), allowed: \(allowed), disagreements: \(failures)")
        #expect(rejected * 10 <= count)
        #expect(allowed > 0 && allowed < count - rejected)
    }
}
