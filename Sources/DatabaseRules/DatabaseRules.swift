// DatabaseRules
