// The facade re-exports the types its API speaks in (operations, decisions, data nodes, auth
// values, diagnostics), so `import DatabaseRules` is all a server needs.
@_exported import RulesRuntime
@_exported import RulesSyntax
@_exported import struct RulesCompiler.CompilationResult
@_exported import class RulesCompiler.CompiledRuleset
@_exported import enum RulesCompiler.RuleKind
@_exported import struct RulesCompiler.LintFinding
@_exported import struct RulesCompiler.LintConfiguration
@_exported import enum RulesCompiler.LintCode
