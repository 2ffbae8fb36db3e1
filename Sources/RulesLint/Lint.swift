import RulesCompiler
import RulesSyntax

/// One lint: its code, what it is about, how serious it is, its documentation and (in the
/// refinements ``StaticLint`` and ``ModelLint``) its check. Each lint is one type in one file
/// under `Lints/`, listed once in ``Lints/all``; the catalog, SARIF's rule descriptions and
/// `docs/lints.md`'s index come from that list.
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
}

extension Lint {
    package static var severity: Severity { .warning }
    package static var securitySeverity: Double? { nil }
    package static var isEnabledByDefault: Bool { true }

    /// Its entry in the diagnostic catalog.
    package static var catalogEntry: DiagnosticCatalog.Entry {
        DiagnosticCatalog.e(code.diagnosticCode, severity, summary, help)
    }
}
