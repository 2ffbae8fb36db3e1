// The facade re-exports the types its API speaks in (operations, decisions, explanations, data
// nodes and values, auth values, diagnostics, limits), so `import DatabaseRules` is all a server
// needs. Only those are public in the modules below; everything else there is `package`: the VM,
// snapshots, the compiler's tables and the engine's state cannot be named from outside (the
// fixture package Tests/Packages/LibraryOnlyApp checks both).
@_exported import RulesRuntime
@_exported import RulesSyntax
@_exported import enum RulesCompiler.RuleKind
