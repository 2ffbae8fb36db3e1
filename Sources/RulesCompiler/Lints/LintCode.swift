import RulesSyntax

extension DiagnosticCode {
    /// `.read` at the root or over a large subtree that is true for everyone, signed in or not.
    public static let publicRead: DiagnosticCode = "public-read"
    /// `.write` at the root or over a large subtree that is true for everyone, signed in or not.
    public static let publicWrite: DiagnosticCode = "public-write"
    /// A `.read` or `.write` below an ancestor that already grants unconditionally.
    public static let shadowedRule: DiagnosticCode = "shadowed-rule"
    /// A `$wildcard` whose rules can only hold for keys that literal siblings take.
    public static let unreachableWildcard: DiagnosticCode = "unreachable-wildcard"
    /// A rule expression whose value does not depend on its inputs.
    public static let constantRule: DiagnosticCode = "constant-rule"
    /// A sub-expression that can never be true.
    public static let impossibleCondition: DiagnosticCode = "impossible-condition"
    /// An equality between values that never have the same type.
    public static let typeMismatchComparison: DiagnosticCode = "type-mismatch-comparison"
    /// A test of `newData`'s existence in `.validate`, which never runs on a delete.
    public static let deleteGuardInValidate: DiagnosticCode = "delete-guard-in-validate"
    /// A writable location with no `.validate` on it or below it.
    public static let unvalidatedWrite: DiagnosticCode = "unvalidated-write"
    /// `root.child(...)` reaching into the data a write rule is judging.
    public static let rootInWrite: DiagnosticCode = "root-in-write"
    /// A query rule that orders by a child the location does not index.
    public static let queryWithoutIndex: DiagnosticCode = "query-without-index"
    /// A `.validate` that compares with `auth` under a `.write` that lets others delete.
    public static let authorizationInValidate: DiagnosticCode = "authorization-in-validate"
    /// A conditional `.read`/`.write` implied by a conditional grant of an ancestor.
    public static let weakerAncestorGrant: DiagnosticCode = "weaker-ancestor-grant"
    /// A grant by a lookup of the caller in data the caller may write.
    public static let selfGrantedPrivilege: DiagnosticCode = "self-granted-privilege"
    /// An owner check on the new owner field only, never the old one.
    public static let ownershipTakeover: DiagnosticCode = "ownership-takeover"
    /// A record field checked at the collection above the records.
    public static let recordCheckAtCollection: DiagnosticCode = "record-check-at-collection"
    /// A whole collection of other users' records that a principal may replace or delete.
    public static let collectionWipe: DiagnosticCode = "collection-wipe"
    /// One branch of an `||` that skips a check another branch makes.
    public static let skippedCheck: DiagnosticCode = "skipped-check"
    /// Per-user records that signed-in strangers may read.
    public static let perUserDataReadable: DiagnosticCode = "per-user-data-readable"
    /// A literal key beside a `$wildcard`, meant as a field of the wildcard's records.
    public static let literalKeyBesideWildcard: DiagnosticCode = "literal-key-beside-wildcard"
    /// A lint suppression comment that hides nothing.
    public static let unusedSuppression: DiagnosticCode = "unused-suppression"
    /// A rules file close to the server's size limit.
    public static let rulesSizeNearLimit: DiagnosticCode = "rules-size-near-limit"
    /// A lint suppression comment that names a code that is not a lint.
    public static let unknownLintCode: DiagnosticCode = "unknown-lint-code"
}

/// The lints of ``Linter``: each a warning with a stable code (see `docs/lints.md`).
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

    /// Whether the lint runs without `--enable`. All lints are on by default today; the switch
    /// exists so that a future noisy lint can ship as opt-in.
    public var isEnabledByDefault: Bool { true }

    /// How serious a finding is for security, on the 0.0–10.0 scale of SARIF's
    /// `security-severity` property (GitHub code scanning: 9.0 and above critical, 7.0 high, 4.0
    /// medium, below low); nil for lints about correctness, performance or upkeep.
    public var securitySeverity: Double? {
        switch self {
        case .publicWrite: 9.1
        case .selfGrantedPrivilege: 8.8
        case .ownershipTakeover: 8.1
        case .collectionWipe: 8.6
        case .skippedCheck: 5.3
        case .perUserDataReadable: 5.3
        case .recordCheckAtCollection: 7.5
        case .authorizationInValidate: 8.1
        case .publicRead: 7.5
        case .shadowedRule, .weakerAncestorGrant: 6.5
        case .unvalidatedWrite, .deleteGuardInValidate: 5.3
        case .rootInWrite: 4.3
        case .unreachableWildcard, .literalKeyBesideWildcard, .constantRule, .impossibleCondition, .typeMismatchComparison,
            .queryWithoutIndex, .rulesSizeNearLimit, .unknownLintCode, .unusedSuppression:
            nil
        }
    }

    /// What the lint is about: `security`, `correctness`, `performance` or `maintainability`.
    public var category: String {
        if securitySeverity != nil { return "security" }
        switch self {
        case .queryWithoutIndex: return "performance"
        case .rulesSizeNearLimit, .unknownLintCode, .unusedSuppression: return "maintainability"
        default: return "correctness"
        }
    }

    /// The lints decided on the access model (`RulesLint`'s threat classes): without a model
    /// (``Linter/lint(_:file:configuration:)`` alone) they report nothing.
    public var isModelled: Bool {
        switch self {
        case .selfGrantedPrivilege, .ownershipTakeover, .authorizationInValidate, .collectionWipe, .skippedCheck, .perUserDataReadable: true
        default: false
        }
    }

    public static func < (a: LintCode, b: LintCode) -> Bool { a.rawValue < b.rawValue }
}
