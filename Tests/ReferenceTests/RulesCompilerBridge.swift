import RulesCompiler

/// Compiles a rules document for the regression tests (nil when it has errors).
enum RulesCompilerBridge {
    static func compile(_ source: String) -> CompiledRuleset? { RulesCompiler.compile(source: source).ruleset }
}
