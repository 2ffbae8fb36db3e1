import RulesCompiler

/// The registry: every lint, once, in the order of ``LintCode``'s cases (the order of the
/// catalog, of SARIF's rules and of `docs/lints.md`). Adding a lint is a type in `Lints/`, a
/// case of ``LintCode`` and a line here.
package enum Lints {
    package static let all: [any Lint.Type] = [
        PublicReadLint.self,
        PublicWriteLint.self,
        ShadowedRuleLint.self,
        UnreachableWildcardLint.self,
        ConstantRuleLint.self,
        ImpossibleConditionLint.self,
        TypeMismatchComparisonLint.self,
        DeleteGuardInValidateLint.self,
        UnvalidatedWriteLint.self,
        RootInWriteLint.self,
        AuthorizationInValidateLint.self,
        WeakerAncestorGrantLint.self,
        SelfGrantedPrivilegeLint.self,
        OwnershipTakeoverLint.self,
        RecordCheckAtCollectionLint.self,
        CollectionWipeLint.self,
        SkippedCheckLint.self,
        PerUserDataReadableLint.self,
        LiteralKeyBesideWildcardLint.self,
        QueryWithoutIndexLint.self,
        RulesSizeNearLimitLint.self,
        UnknownLintCodeLint.self,
        UnusedSuppressionLint.self,
    ]

    /// The type of each code (a test checks that every code has exactly one).
    package static let byCode: [LintCode: any Lint.Type] = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The lints decided on the rule tree, in registry order.
    package static let staticLints: [any StaticLint.Type] = all.compactMap { $0 as? any StaticLint.Type }

    /// The lints decided on the access model, in registry order.
    package static let modelLints: [any ModelLint.Type] = all.compactMap { $0 as? any ModelLint.Type }

    /// The static lints whose finding the access model also shows where their static check cannot.
    package static let modelWidenedLints: [any ModelWidenedLint.Type] = all.compactMap { $0 as? any ModelWidenedLint.Type }

    /// The lints' entries of the diagnostic catalog, in registry order.
    package static let catalogEntries: [DiagnosticCatalog.Entry] = all.map { $0.catalogEntry }
}
