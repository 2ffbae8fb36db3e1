import RulesCompiler
import RulesRuntime

/// A compiled rules file and its engine, with each rule's index by its path: what coverage is
/// counted against (shared by every spec that names the file, and by a server's namespace).
package final class LoadedRules: Sendable {
    /// The compiled rules (with the source file, for positions).
    package let ruleset: CompiledRuleset
    /// The engine that decides operations.
    package let engine: RulesEngine
    /// Rule index by rule path (`/posts/$postId/.write`), to map explanations back to rules.
    package let indexByRulePath: [String: Int]

    /// Wraps a compiled ruleset, with a new engine for it.
    package convenience init(ruleset: CompiledRuleset) {
        self.init(ruleset: ruleset, engine: RulesEngine(ruleset: ruleset))
    }

    /// Wraps a compiled ruleset and the engine already made for it (its tables are not built
    /// again).
    package init(ruleset: CompiledRuleset, engine: RulesEngine) {
        precondition(engine.ruleset === ruleset, "the engine decides another ruleset")
        self.ruleset = ruleset
        self.engine = engine
        var index: [String: Int] = [:]
        for (i, rule) in ruleset.rules.enumerated() { index[rule.rulePath] = i }
        self.indexByRulePath = index
    }

    /// The path of the rules file (or the name given to inline rules).
    package var path: String { ruleset.file.path }
}
