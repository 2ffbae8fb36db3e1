import RulesCompiler

/// The registry: every lint, once, in the order of the catalog, of SARIF's rules and of
/// `docs/lints.md`. Adding a lint is a file in `Lints/` (its type, with its code, its
/// documentation, its check, the lints it yields to and its witness policy) and a line here.
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

    /// Every code, in registry order.
    package static let codes: [LintCode] = all.map { $0.code }

    /// The type of each code's name (a test checks that no two lints share a code).
    static let byName: [String: any Lint.Type] = Dictionary(all.map { ($0.code.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

    /// The lints decided on the rule tree, in registry order.
    package static let staticLints: [any StaticLint.Type] = all.compactMap { $0 as? any StaticLint.Type }

    /// The lints decided on the access model, in registry order.
    package static let modelLints: [any ModelLint.Type] = all.compactMap { $0 as? any ModelLint.Type }

    /// The static lints whose finding the access model also shows where their static check cannot.
    package static let modelWidenedLints: [any ModelWidenedLint.Type] = all.compactMap { $0 as? any ModelWidenedLint.Type }

    /// The lints' entries of the diagnostic catalog, in registry order.
    package static let catalogEntries: [DiagnosticCatalog.Entry] = all.map { $0.catalogEntry }
}
