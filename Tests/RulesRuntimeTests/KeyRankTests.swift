import RulesTestSupport
import Testing

@testable import RulesRuntime

/// Key ranks: the 128-bit summaries that searches compare before looking at a key's bytes.
/// A rank that orders two keys the wrong way, or calls two different keys the same, would make
/// a search miss a stored child.
@Suite struct KeyRankTests {
    /// Keys at the edges: integers and near-integers, the empty key, keys that differ only
    /// after their eighth byte, keys that are prefixes of others, multi-byte UTF-8 and bytes
    /// that a stored key cannot hold but a hand-built tree may.
    static let edgeKeys = [
        "", "0", "1", "-1", "7", "10", "-2147483648", "2147483647", "2147483648", "-2147483649",
        "007", "-0", "+1", "1.5", "a", "ab", "ab\u{1}", "ab\u{0}", "abcdefgh", "abcdefghi", "abcdefgg",
        "abcdefgh\u{0}", "\u{0}\u{0}\u{0}\u{0}x", "\u{0}", "p00000041", "p00000042", "p0000004",
        "-NxAbCdEfGh1", "-NxAbCdEfGh2", "é", "e\u{301}", "😀", "\u{FFFF}", "zzzzzzzzzzzz",
        "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnoX", "abcdefghijklmnoY", "abcdefghijklmnoXY",
        "abcdefghijklmno\u{0}", "abcdefghijklmn\u{0}", "-NxAbCdEfGhIjKlMnOp1", "-NxAbCdEfGhIjKlMnOp2",
        "\u{0}\u{0}\u{1}", "\u{0}\u{0}\u{0}\u{1}", "\u{0}\u{0}\u{0}\u{1}\u{0}\u{0}\u{0}\u{0}\u{1}",
    ]

    /// Wherever two ranks differ they order the keys as ``KeyOrder`` does; equal ranks that
    /// decide equality belong to the same key.
    @Test func ranksOrderKeysAsKeyOrderDoes() {
        var keys = Self.edgeKeys
        var rng = SplitMix64(seed: 5)
        let alphabet = Array("0123456789-az_AZ\u{0}é")
        for _ in 0..<400 {
            let length = rng.below(20)
            keys.append(String((0..<length).map { _ in rng.pick(alphabet) }))
        }
        for a in keys {
            for b in keys {
                let ra = KeyOrder.rank(a), rb = KeyOrder.rank(b)
                let c = KeyOrder.compare(a, b)
                if ra < rb { #expect(c < 0, "\(a.debugDescription) ranks below \(b.debugDescription)") }
                if ra > rb { #expect(c > 0, "\(a.debugDescription) ranks above \(b.debugDescription)") }
                if ra == rb, ra.decidesEquality { #expect(c == 0, "\(a.debugDescription) and \(b.debugDescription) share a deciding rank") }
                if c == 0 { #expect(ra == rb) }
            }
        }
    }

    /// The rank read a word at a time (with overlapping loads for a key's last bytes) is the
    /// rank defined byte by byte, for keys of every length around the word boundaries, with
    /// bytes that set the top bit and bytes of zero in every position.
    @Test func ranksReadByWordsAreTheRanksDefinedByteByByte() {
        var rng = SplitMix64(seed: 11)
        let bytePool: [UInt8] = [0, 1, 0x2D, 0x30, 0x39, 0x41, 0x61, 0x7A, 0x7F, 0xC3, 0xA9, 0xF0, 0x9F, 0xFF]
        for length in 0...20 {
            for _ in 0..<60 {
                var bytes = (0..<length).map { _ in rng.pick(bytePool) }
                // Half of them start with a letter, so that most are not integer-like.
                if length > 0 && rng.below(2) == 0 { bytes[0] = 0x6B }
                let rank = bytes.withUnsafeBufferPointer { KeyRank(bytes: $0) }
                let expected = Self.referenceRank(bytes)
                #expect(rank.high == expected.high && rank.low == expected.low, "\(bytes)")
            }
        }
    }

    /// The rank as ``KeyRank`` documents it, one byte at a time.
    static func referenceRank(_ bytes: [UInt8]) -> (high: UInt64, low: UInt64) {
        if let integer = bytes.withUnsafeBufferPointer({ KeyOrder.integerValue(bytes: $0) }) {
            return (UInt64(bitPattern: Int64(integer) &+ 0x8000_0000), 0)
        }
        var high: UInt64 = 0, low: UInt64 = 0
        for (i, byte) in bytes.prefix(8).enumerated() { high |= UInt64(byte) << UInt64(56 - 8 * i) }
        for (i, byte) in bytes.dropFirst(8).prefix(8).enumerated() { low |= UInt64(byte) << UInt64(56 - 8 * i) }
        if bytes.count >= 16 { low |= 0xFF } else { low |= UInt64(bytes.count) }
        if high <= KeyOrder.firstStringRank { return (KeyOrder.firstStringRank, 0) }
        return (high, low)
    }

    @Test func integerKeysRankBelowEveryOtherKey() {
        #expect(KeyOrder.rank("-2147483648").high == 0)
        #expect(KeyOrder.rank("2147483647").high == KeyOrder.firstStringRank - 1)
        for key in ["", "\u{0}", "2147483648", "007", "a"] {
            #expect(KeyOrder.rank(key).high >= KeyOrder.firstStringRank, "\(key.debugDescription)")
        }
    }

    /// Keys of up to 15 bytes (that do not begin with zero bytes) are told apart by their ranks
    /// alone; longer keys that share their first 15 bytes, and keys that begin with zero bytes,
    /// are left to their bytes. A rank that claimed to decide for those would call two
    /// different keys the same.
    @Test func ranksDecideEqualityExactlyForShortKeys() {
        for key in ["a", "uid", "p00000042", "abcdefghijklmno", "é", "7", "-2147483648", "2147483648"] {
            #expect(KeyOrder.rank(key).decidesEquality, "\(key.debugDescription)")
        }
        for key in ["abcdefghijklmnop", "-NxAbCdEfGhIjKlMnOp", "", "\u{0}\u{0}\u{0}\u{0}x", "\u{0}"] {
            #expect(!KeyOrder.rank(key).decidesEquality, "\(key.debugDescription)")
        }
        // Differ only in byte 16, or only in the length beyond 15: the same rank.
        #expect(KeyOrder.rank("abcdefghijklmnoX") == KeyOrder.rank("abcdefghijklmnoY"))
        #expect(KeyOrder.rank("abcdefghijklmnoXY") == KeyOrder.rank("abcdefghijklmnoX"))
        // Differ in byte 14, or in the length up to 15: different ranks.
        #expect(KeyOrder.rank("abcdefghijklmnX") != KeyOrder.rank("abcdefghijklmnY"))
        #expect(KeyOrder.rank("abcdefghijklmn") < KeyOrder.rank("abcdefghijklmno"))
        #expect(KeyOrder.rank("abcdefghijklmno") < KeyOrder.rank("abcdefghijklmnoX"))
    }

    /// A rank that decides equality holds its key whole: a node of such keys keeps no copy.
    @Test func ranksThatDecideGiveTheirKeyBack() {
        var keys = Self.edgeKeys
        var rng = SplitMix64(seed: 11)
        let alphabet = Array("0123456789-az_AZ\u{0}é😀")
        for _ in 0..<2_000 {
            keys.append(String((0..<(1 + rng.below(17))).map { _ in alphabet[rng.below(alphabet.count)] }))
        }
        for key in keys where KeyOrder.rank(key).decidesEquality {
            #expect(Array(KeyOrder.rank(key).key.utf8) == Array(key.utf8), "\(key.debugDescription)")
        }
    }

    /// A node's keys, whether all are whole in their ranks or some are long (then all are kept in
    /// a block, made when the first long key arrives), read back the same through inserts,
    /// replacements and removals, narrow and wide.
    @Test(arguments: [6, 30, 33, 200])
    func keysReadBackThroughWritesWhetherKeptOrInRanks(count: Int) throws {
        var rng = SplitMix64(seed: UInt64(count) &* 7)
        var expected: [String: Int] = [:]
        var node: DataNode?
        for step in 0..<(count * 4) {
            let long = rng.below(5) == 0
            let key = long ? "-NxAbCdEfGhIjKlMnOp" + String(rng.below(count)) : "k" + String(rng.below(count))
            if rng.below(4) == 0 {
                expected[key] = nil
                node = node.flatMap { $0.settingChild(key, to: nil) }
            } else {
                expected[key] = step
                node = (node ?? DataNode(leaf: .bool(true))).settingChild(key, to: DataNode(leaf: .number(Double(step))))
                if node?.child(key)?.value != .number(Double(step)) { Issue.record("\(key) not set") }
            }
            if let current = node, current.value == nil {
                let sorted = expected.keys.sorted { KeyOrder.compare($0, $1) < 0 }
                #expect(current.keys == sorted)
                for (k, v) in expected { #expect(current.child(k)?.value == .number(Double(v))) }
            }
        }
    }

    /// Every key of a node is found, and every absent key is not, whether the keys share long
    /// prefixes (ties broken by bytes) or not, in a narrow node and in a wide one.
    @Test(arguments: [5, 40, 3_000])
    func searchesFindExactlyTheStoredKeys(count: Int) throws {
        var keys = Set(Self.edgeKeys.filter { !$0.isEmpty })
        var rng = SplitMix64(seed: UInt64(count))
        while keys.count < count + Self.edgeKeys.count {
            // Push-key-like keys: a shared eight-byte prefix, then a random tail.
            keys.insert("-NxAbCdE" + String(rng.below(100_000)))
        }
        let stored = Array(keys).shuffled(using: &rng).prefix(count)
        let node = try #require(DataNode.object(stored.map { ($0, DataNode(leaf: .string($0))) }))
        for key in keys {
            let found = node.child(key)
            if stored.contains(key) {
                #expect(found?.value == .string(key), "\(key.debugDescription) not found")
            } else {
                #expect(found == nil, "\(key.debugDescription) found but not stored")
            }
        }
    }
}
