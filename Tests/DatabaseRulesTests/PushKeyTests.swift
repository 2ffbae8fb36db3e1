import DatabaseRules
import Testing

/// Push keys sort in creation order, within one millisecond too, and are valid keys.
@Suite struct PushKeyTests {
    @Test func keysAreChronologicalAndValid() throws {
        var generator = PushKey(seed: 42)
        var keys: [String] = []
        for t in [1_700_000_000_000.0, 1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001, 1_700_000_100_000] {
            keys.append(generator.next(now: t))
        }
        #expect(keys.allSatisfy { $0.utf8.count == 20 })
        #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(keys).count == keys.count)
        for k in keys { _ = try DataPath(validating: "/messages/" + k) }
        // The first 8 characters encode the time: equal times share them.
        #expect(keys[0].prefix(8) == keys[1].prefix(8))
        #expect(keys[0].prefix(8) != keys[3].prefix(8))
    }

    @Test func aFixedSeedRepeats() {
        var a = PushKey(seed: 7), b = PushKey(seed: 7)
        #expect(a.next(now: 5) == b.next(now: 5))
    }
}
