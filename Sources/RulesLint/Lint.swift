import RulesCompiler
import RulesSyntax

/// One lint: its code, what it is about, how serious it is, its documentation, the lints it
/// yields to, what its findings need to be reported, and (in the refinements ``StaticLint`` and
/// ``ModelLint``) its check. Each lint is one type in one file under `Lints/`, listed once in
/// ``Lints/all``; the codes, the catalog, SARIF's rule descriptions and `docs/lints.md`'s index
/// come from that list. A lint's file does not call another lint's: what two lints share is in
/// `Support/`.
package protocol Lint: SendableMetatype {
    /// The code it reports under.
    static var code: LintCode { get }
    /// What it is about.
    static var category: LintCategory { get }
    /// The severity of its findings unless the configuration says otherwise (warning).
    static var severity: Severity { get }
    /// How serious a finding is for security, on the 0.0–10.0 scale of SARIF's
    /// `security-severity` property (GitHub code scanning: 9.0 and above critical, 7.0 high, 4.0
    /// medium, below low); nil for lints about correctness, performance or upkeep.
    static var securitySeverity: Double? { get }
    /// Whether it runs without `--enable`. All lints are on by default today; the switch exists
    /// so that a future noisy lint can ship as opt-in.
    static var isEnabledByDefault: Bool { get }
    /// One line: what it reports.
    static var summary: String { get }
    /// What triggers it and how to fix it.
    static var help: String { get }
    /// The lints whose findings report the same cause: a finding of this lint that one of theirs
    /// covers is dropped (``Linter`` applies them). None unless the lint says.
    static var subsumedBy: [LintPrecedence] { get }
    /// What its findings need to be reported (``WitnessSearch`` applies it): a security lint's
    /// findings need a witness the engine confirmed unless the lint says otherwise.
    static var witnessPolicy: WitnessPolicy { get }
}

/// A lint that reports the same cause as another: where the other's finding covers a finding of
/// the lint that declares it (in its ``Lint/subsumedBy``), only the other's is reported.
package struct LintPrecedence: Sendable {
    /// How the other's finding covers the yielding one.
    package enum Cover: Sendable {
        /// On the same range.
        case sameRange
        /// Around it (the yielding finding's range lies within the other's), for findings decided
        /// on the access model only, whose range is the rule that allows what they report.
        case modelledWithin
    }

    /// The lint whose finding is reported.
    package let winner: LintCode
    /// How its finding covers the yielding one.
    package let cover: Cover

    package init(_ winner: LintCode, _ cover: Cover) {
        self.winner = winner
        self.cover = cover
    }

    /// Whether `winner`'s finding at `range` covers `finding` (``modelled``: whether `finding`
    /// was decided on the access model).
    func covers(_ range: SourceRange, _ finding: LintFinding, modelled: Bool) -> Bool {
        let r = finding.diagnostic.range
        switch cover {
        case .sameRange: return range.start == r.start && range.end == r.end
        case .modelledWithin: return modelled && range.start <= r.start && r.end <= range.end
        }
    }
}

/// What a lint's findings need to be reported.
package enum WitnessPolicy: Sendable {
    /// Nothing: no witness is searched (lints about correctness, performance or upkeep).
    case notSearched
    /// A witness is searched; without one the finding is kept, marked unconfirmed.
    case searched
    /// A witness is searched; without one the finding is dropped (the engine's verdict is the
    /// proof).
    case required
}

extension Lint {
    package static var severity: Severity { .warning }
    package static var securitySeverity: Double? { nil }
    package static var isEnabledByDefault: Bool { true }
    package static var subsumedBy: [LintPrecedence] { [] }
    package static var witnessPolicy: WitnessPolicy { securitySeverity == nil ? .notSearched : .required }

    /// Its entry in the diagnostic catalog.
    package static var catalogEntry: DiagnosticCatalog.Entry {
        DiagnosticCatalog.e(code.diagnosticCode, severity, summary, help)
    }
}
