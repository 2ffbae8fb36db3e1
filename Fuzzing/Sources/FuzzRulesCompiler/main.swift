import DatabaseRules
import FuzzSupport

/// The rules compiler on arbitrary bytes: diagnostics or a ruleset, never a trap. When the bytes
/// compile, a few fixed operations run against the result, so that the bytecode of any rule the
/// compiler accepts is executed too.
func fuzzRulesCompiler(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let file = SourceFile(path: "database.rules.json", bytes: FuzzBytes.array(data, size))
    let ruleset: Ruleset
    do {
        ruleset = try Ruleset(file: file)
    } catch {
        FuzzCheck.that(!error.diagnostics.isEmpty, "compilation failed without a diagnostic")
        for d in error.diagnostics { _ = file.location(of: d.range) }
        _ = error.description
        return 0
    }
    let engine = RulesEngine(ruleset: ruleset.compiled)
    let root = FuzzFixtures.sampleTree
    for op in FuzzFixtures.sampleOperations {
        for auth in [AuthValue.null, .user(uid: "alice")] {
            let d = engine.decide(op, on: root, auth: auth, now: 1_700_000_000_000, explain: true)
            FuzzCheck.decision(d, for: op, on: root)
        }
    }
    return 0
}

// Built before fuzzing starts, so that the leak checker does not count it against an input.
_ = FuzzFixtures.sampleTree
FuzzDriver.run(fuzzRulesCompiler)
