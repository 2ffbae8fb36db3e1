import RulesTestSupport

/// Random data trees over a small key alphabet, written values (with nulls and empty objects,
/// which delete), and `auth` values (signed out, or a user with a few claims).
enum DataGenerator {
    static let keys = ExpressionGenerator.keys

    static func primitive(_ g: inout SplitMix64) -> RefInput {
        switch g.below(4) {
        case 0: .number(g.pick([0, 1, 2, 3, -1, 0.5, 10]))
        case 1: .bool(g.chance(0.5))
        default: .string(g.pick(["", "a", "b", "ab", "abc", "B", "a.b", "1", "é", "x😀", "A1"]))
        }
    }

    /// A stored tree (no nulls, no empty objects once pruned).
    static func tree(_ g: inout SplitMix64, depth: Int) -> RefData? {
        RefData.pruned(input(&g, depth: depth, nulls: false))
    }

    /// A written value; with `nulls`, members may be null or `{}`.
    static func input(_ g: inout SplitMix64, depth: Int, nulls: Bool) -> RefInput {
        if nulls && g.chance(0.1) { return g.chance(0.5) ? .null : .object([]) }
        if nulls && g.chance(0.06) { return g.chance(0.4) ? .timestamp : .increment(g.pick([1, -1, 2.5])) }
        if depth <= 0 || g.chance(0.35) { return primitive(&g) }
        var members: [(String, RefInput)] = []
        for key in keys where g.chance(0.5) {
            members.append((key, input(&g, depth: depth - 1, nulls: nulls)))
        }
        return .object(members)
    }

    static func auth(_ g: inout SplitMix64) -> RefInput {
        if g.chance(0.25) { return .null }
        let uid = g.pick(keys + ["u1"])
        var token: [(String, RefInput)] = [("sub", .string(uid))]
        if g.chance(0.5) { token.append(("admin", .bool(g.chance(0.5)))) }
        if g.chance(0.5) { token.append(("n", .number(g.pick([0, 1, 2, 5])))) }
        if g.chance(0.5) { token.append(("s", .string(g.pick(["a", "ab", "B", ""])))) }
        if g.chance(0.3) { token.append(("org", .object([("tier", .string(g.pick(["gold", "free"])))]))) }
        return .object([("uid", .string(uid)), ("provider", .string("custom")), ("token", .object(token))])
    }

    /// A path of `count` keys from the alphabet.
    static func path(_ g: inout SplitMix64, count: Int) -> [String] {
        (0..<count).map { _ in g.pick(keys) }
    }
}
