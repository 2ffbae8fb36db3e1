import RulesCompiler
import RulesSyntax

/// Which lints run, and with which severity.
public struct LintConfiguration: Sendable, Hashable {
    /// The lints that run.
    public var enabled: Set<LintCode>

    /// Lints reported with another severity than warning: `.error` makes a finding fail the check.
    public var severities: [LintCode: Severity] = [:]

    /// What the solver may spend deciding the access model's cells that the lints read; nil:
    /// the bounded search alone (see `docs/lints.md`, "The solver in `rules check`").
    package var solver: AccessModel.SolverBudget?

    /// Creates a configuration with exactly these lints, all reported as warnings.
    public init(enabled: Set<LintCode>) { self.enabled = enabled }

    /// Creates a configuration with exactly these lints and severities.
    public init(enabled: Set<LintCode>, severities: [LintCode: Severity]) {
        self.enabled = enabled
        self.severities = severities
    }

    /// Every lint that is on by default.
    public static let `default` = LintConfiguration(enabled: Set(LintCode.allCases.filter(\.isEnabledByDefault)))

    /// `base` (the default set) with `enable` turned on and then `disable` turned off, from code names.
    /// Throws ``UnknownLintCodeError`` for a name that is not a lint code.
    public static func from(enable: [String], disable: [String], base: LintConfiguration = .default) throws -> LintConfiguration {
        var c = base
        for name in enable {
            guard let code = LintCode(rawValue: name) else { throw UnknownLintCodeError(name: name) }
            c.enabled.insert(code)
        }
        for name in disable {
            guard let code = LintCode(rawValue: name) else { throw UnknownLintCodeError(name: name) }
            c.enabled.remove(code)
        }
        return c
    }
}

/// A lint code name that does not exist.
public struct UnknownLintCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public let name: String

    public var description: String {
        "unknown lint code '\(name)'; the codes are: \(LintCode.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
