// RulesRuntime
