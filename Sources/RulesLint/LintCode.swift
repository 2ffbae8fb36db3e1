import RulesSyntax

/// The code of a lint (see `docs/lints.md`): its name in output, in configuration and in
/// suppression comments. Each lint declares its code once, in its own file under `Lints/`
/// (`extension LintCode { public static let publicRead = LintCode(declaring: "public-read") }`); the codes
/// there are those of ``Lints/all``, in its order.
public struct LintCode: RawRepresentable, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The code as written (`public-read`).
    public let rawValue: String

    /// The code of a registered lint; nil for any other name.
    public init?(rawValue: String) {
        guard Lints.byName[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    /// A lint's code, declared once beside the lint.
    init(declaring name: String) { rawValue = name }

    /// Every code, in registry order (the order of the catalog, of SARIF's rules and of
    /// `docs/lints.md`).
    public static var allCases: [LintCode] { Lints.codes }

    public var description: String { rawValue }

    /// The diagnostic code the lint reports under.
    public var diagnosticCode: DiagnosticCode { DiagnosticCode(rawValue: rawValue) }

    /// The lint of a diagnostic code, if it is one.
    public init?(_ code: DiagnosticCode) { self.init(rawValue: code.rawValue) }

    /// The lint's type in the registry.
    package var lint: any Lint.Type {
        guard let type = Lints.byName[rawValue] else { preconditionFailure("no lint type is registered for \(rawValue)") }
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
