import DatabaseRules
import Foundation
import FuzzSupport

/// Print each decoded input (set FUZZ_VERBOSE=1 when replaying a crash).
let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

/// The seed rulesets with the words each one's keys and constants use.
let seeds: [(engine: RulesEngine, words: [String])] = SeedRules.compiled.map { ruleset in
    var words: Set<String> = ["alice", "bob", "p1", "p2", "0", "1", "-Nabc", "", ".sv", ".value", ".priority", "a/b"]
    ruleset.tree.forEachNode { node in
        for (key, _) in node.literalChildren { words.insert(key) }
    }
    for s in ruleset.strings where s.utf8.count <= 40 { words.insert(s) }
    return (RulesEngine(ruleset: ruleset), words.sorted())
}

/// The engine on a fuzz-chosen seed ruleset, data tree, operation, user and time: it must decide,
/// never trap, and the decision must be consistent (see ``FuzzCheck/decision(_:for:on:)``) and
/// the same with and without an explanation.
func fuzzEngine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzBytes.array(data, size)
    guard !seeds.isEmpty else { FuzzCheck.fail("no seed ruleset compiled") }
    // One input in four decides against a generated rules file of string operations (chains of
    // replace, +, case mapping over client data): they must be decided or fail their rule, never
    // exhaust memory.
    var seed = seeds[Int(bytes.first ?? 0) % seeds.count]
    var decoder = FuzzDecoder(Array(bytes.dropFirst()), words: seed.words)
    if (bytes.first ?? 0) & 3 == 3 {
        let source = FuzzStringRules.rulesFile(&decoder)
        let generated: Ruleset
        do {
            generated = try Ruleset(source: source)
        } catch {
            // The generator only writes type-correct rules: one that does not compile is a bug.
            FuzzCheck.fail("generated rules do not compile: \(source)\n\(error)")
        }
        if verbose { FileHandle.standardError.write(Data("rules: \(source)\n".utf8)) }
        seed = (RulesEngine(ruleset: generated.compiled), seed.words + ["aaaaaaaaaa", "x"])
        decoder = FuzzDecoder(decoder.remaining, words: seed.words)
    }
    let treeInput = decoder.dataInput(depth: 6)
    let root = (try? treeInput.validate(at: .root)) != nil ? treeInput.resolved(now: 0, existing: nil) : nil
    let op = decoder.operation()
    let auth = decoder.auth()
    let now = decoder.pick([1_700_000_000_000, 0, -1, .nan, 1e300] as [Double])
    if verbose {
        print("tree: \(root?.exportJSON() ?? "null")\nop: \(op)\nauth: \(auth)\nnow: \(now)")
    }
    let plain = seed.engine.decide(op, on: root, auth: auth, now: now)
    FuzzCheck.decision(plain, for: op, on: root)
    // An allowed update's tree is the same as applying its entries one by one.
    if plain.allowed, case .update(let path, let values) = op, let base = try? DataPath(validating: path) {
        var expected = root
        for (relative, value) in values {
            guard let keys = try? base.appending(DataPath(validating: relative)) else { FuzzCheck.fail("allowed a bad path") }
            expected = DataNode.replacing(expected, at: keys, with: value.resolved(now: now, existing: root?.descendant(keys.keys)))
        }
        FuzzCheck.that(FuzzCheck.same(plain.newRoot, expected), "update merged differently from one by one")
    }
    let explained = seed.engine.decide(op, on: root, auth: auth, now: now, explain: true)
    FuzzCheck.that(plain.allowed == explained.allowed, "explain changed the decision of \(op.kindName)")
    FuzzCheck.that(FuzzCheck.same(plain.newRoot, explained.newRoot),
                   "explain changed the new tree: \(plain.newRoot?.exportJSON() ?? "null") vs \(explained.newRoot?.exportJSON() ?? "null")")
    return 0
}

// Built before fuzzing starts, so that the leak checker does not count it against an input.
_ = seeds
FuzzDriver.run(fuzzEngine)
