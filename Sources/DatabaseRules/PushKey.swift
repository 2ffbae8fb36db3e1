/// Push keys: 20 characters, the first 8 encoding the time in ms so that keys sort in creation
/// order, the last 12 random, in the alphabet `-0-9A-Z_a-z`, whose ASCII order is the sort order.
public struct PushKey: Sendable {
    private static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
    private var lastTime: Double = -1
    /// The random part of the last key, made on the first key (a generator that never makes a
    /// key, as most replays' are, allocates nothing).
    private var lastRandom: [Int] = []
    private var generator: SplitMix

    /// Creates a generator; a fixed `seed` gives a repeatable sequence (for tests).
    public init(seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        generator = SplitMix(state: seed)
    }

    /// The next key for time `now` (ms). Keys made in the same millisecond still increase.
    public mutating func next(now: Double) -> String {
        var t = max(0, Int64(now))
        var chars: [Character] = []
        for _ in 0..<8 {
            chars.append(Self.alphabet[Int(t % 64)])
            t /= 64
        }
        chars.reverse()
        if now == lastTime && !lastRandom.isEmpty {
            // Increment the random part so keys in one millisecond stay ordered.
            var i = 11
            while i >= 0 && lastRandom[i] == 63 {
                lastRandom[i] = 0
                i -= 1
            }
            if i >= 0 { lastRandom[i] += 1 }
        } else {
            lastTime = now
            if lastRandom.isEmpty { lastRandom = Array(repeating: 0, count: 12) }
            for i in 0..<12 { lastRandom[i] = Int(generator.next() % 64) }
        }
        for r in lastRandom { chars.append(Self.alphabet[r]) }
        return String(chars)
    }
}

/// A small, fast, seedable generator for push keys.
struct SplitMix: Sendable {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
