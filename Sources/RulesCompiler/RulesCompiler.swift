// RulesCompiler
