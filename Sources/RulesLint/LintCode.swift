import RulesSyntax

/// The code of every lint (see `docs/lints.md`). What each lint is (its category, its severity,
/// its documentation and its check) is its type in ``Lints/all``, which has one per code.
public enum LintCode: String, Sendable, Hashable, CaseIterable, Comparable {
    case publicRead = "public-read"
    case publicWrite = "public-write"
    case shadowedRule = "shadowed-rule"
    case unreachableWildcard = "unreachable-wildcard"
    case constantRule = "constant-rule"
    case impossibleCondition = "impossible-condition"
    case typeMismatchComparison = "type-mismatch-comparison"
    case deleteGuardInValidate = "delete-guard-in-validate"
    case unvalidatedWrite = "unvalidated-write"
    case rootInWrite = "root-in-write"
    case authorizationInValidate = "authorization-in-validate"
    case weakerAncestorGrant = "weaker-ancestor-grant"
    case selfGrantedPrivilege = "self-granted-privilege"
    case ownershipTakeover = "ownership-takeover"
    case recordCheckAtCollection = "record-check-at-collection"
    case collectionWipe = "collection-wipe"
    case skippedCheck = "skipped-check"
    case perUserDataReadable = "per-user-data-readable"
    case literalKeyBesideWildcard = "literal-key-beside-wildcard"
    case queryWithoutIndex = "query-without-index"
    case rulesSizeNearLimit = "rules-size-near-limit"
    case unknownLintCode = "unknown-lint-code"
    case unusedSuppression = "unused-suppression"

    /// The diagnostic code the lint reports under.
    public var diagnosticCode: DiagnosticCode { DiagnosticCode(rawValue: rawValue) }

    /// The lint of a diagnostic code, if it is one.
    public init?(_ code: DiagnosticCode) { self.init(rawValue: code.rawValue) }

    /// The lint's type in the registry.
    package var lint: any Lint.Type {
        guard let type = Lints.byCode[self] else { preconditionFailure("no lint type is registered for \(rawValue)") }
        return type
    }

    /// Whether the lint runs without `--enable` (all do today).
    public var isEnabledByDefault: Bool { lint.isEnabledByDefault }

    /// How serious a finding is for security, on the 0.0–10.0 scale of SARIF's
    /// `security-severity` property; nil for lints about correctness, performance or upkeep.
    public var securitySeverity: Double? { lint.securitySeverity }

    /// What the lint is about.
    public var category: LintCategory { lint.category }

    /// The lints decided on the access model (``ModelLint``): without a model
    /// (``Linter/lint(_:file:configuration:modelled:)`` alone) they report what their static
    /// check finds, if they have one, and nothing otherwise.
    public var isModelled: Bool { lint is any ModelLint.Type }

    public static func < (a: LintCode, b: LintCode) -> Bool { a.rawValue < b.rawValue }
}
