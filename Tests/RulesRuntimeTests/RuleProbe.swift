import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// The three results a rule can have (spec §7.1): true, false, or a runtime error.
enum Expected: Sendable, Equatable, CustomStringConvertible {
    case isTrue
    case isFalse
    case error

    init(_ outcome: RuleOutcome) {
        switch outcome {
        case .value(true): self = .isTrue
        case .value(false): self = .isFalse
        case .error: self = .error
        }
    }

    var description: String {
        switch self {
        case .isTrue: "true"
        case .isFalse: "false"
        case .error: "runtime error"
        }
    }
}

/// Compiles small rules documents and runs operations against them.
enum RuleProbe {
    /// The server time used by every probe.
    static let now: Double = 1_700_000_000_000

    /// Compiles a rules document that must have no errors.
    static func ruleset(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CompiledRuleset {
        let result = RulesCompiler.compile(source: source)
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.message)
        return try #require(result.ruleset, "does not compile: \(errors)", sourceLocation: sourceLocation)
    }

    /// The diagnostics of compiling a document.
    static func diagnostics(_ source: String) -> [Diagnostic] {
        RulesCompiler.compile(source: source).diagnostics
    }

    /// Decides an operation with an explanation.
    static func decide(
        _ rules: String, _ operation: DatabaseOperation, root: DataNode?, auth: AuthValue = .null,
        now: Double = RuleProbe.now, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Decision {
        let ruleset = try ruleset(rules, sourceLocation: sourceLocation)
        return RulesEngine(ruleset: ruleset).decide(operation, on: root, auth: auth, now: now, explain: true)
    }

    /// A tree from JSON (nil for null or `{}`).
    static func tree(_ json: String?) throws -> DataNode? {
        guard let json else { return nil }
        return try DataNode.fromJSON(json)
    }

    /// The outcomes of every evaluation, in order.
    static func outcomes(_ d: Decision) -> [Expected] {
        (d.explanation?.evaluations ?? []).map { Expected($0.outcome) }
    }

    /// The rule paths of every evaluation, in order.
    static func rulePaths(_ d: Decision) -> [String] {
        (d.explanation?.evaluations ?? []).map(\.rulePath)
    }
}
