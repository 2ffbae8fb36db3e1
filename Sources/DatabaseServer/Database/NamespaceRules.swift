import DatabaseRules
import RulesCoverage

/// The rules a namespace is decided with, and where they came from.
package struct NamespaceRules: Sendable {
    /// Where a namespace's rules came from.
    package enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// The server's rules file (reloaded when it changes).
        case file(String)
        /// Open rules, because the server was started without a rules file.
        case openDefault
        /// Uploaded to this namespace through `PUT /.settings/rules.json`.
        case uploaded

        /// The file path, `open rules (no rules file)`, or `uploaded`.
        package var description: String {
            switch self {
            case .file(let path): path
            case .openDefault: "open rules (no rules file)"
            case .uploaded: "uploaded through /.settings/rules.json"
            }
        }
    }

    /// The name rules uploaded to a namespace are compiled with, and so what explanations
    /// show for their positions: `uploaded rules (namespace NAME)`, as in
    /// `uploaded rules (namespace demo):3:19`.
    package static func uploadedPath(namespace: String) -> String {
        "uploaded rules (namespace \(namespace))"
    }

    /// The compiled rules.
    package let ruleset: Ruleset
    /// The source text as given (comments included).
    package let source: String
    /// Where they came from.
    package let origin: Origin
    /// The rules with the rule index coverage is counted by.
    package let loaded: LoadedRules

    /// The same rules with a budget of at most ``inlineSteps`` steps: what a request is decided
    /// with on the thread that received it (see ``Namespace``). A decision that needs more steps
    /// ends exhausted, and is made again off the cooperative pool with the whole budget.
    package let inlineEngine: RulesEngine

    /// The steps a decision may take on the thread that received its request.
    package static let inlineSteps = 10_000

    /// Rules from compiled source.
    package init(ruleset: Ruleset, source: String, origin: Origin) {
        self.ruleset = ruleset
        self.source = source
        self.origin = origin
        // One engine per ruleset: coverage decides with the one that serves requests.
        self.loaded = LoadedRules(ruleset: ruleset.compiled, engine: ruleset.engine)
        self.inlineEngine = Self.inline(ruleset.engine)
    }

    /// `engine` with a budget of at most ``inlineSteps``.
    static func inline(_ engine: RulesEngine) -> RulesEngine {
        var inline = engine
        inline.budget = EvaluationBudget(steps: Swift.min(Self.inlineSteps, engine.budget.steps))
        return inline
    }

    /// The open rules' ``inlineEngine``: the administrator's writes.
    package static let openInlineEngine = inline(Ruleset.open.engine)

    /// The storage of the decisions ``decideHere(_:on:auth:now:)`` makes.
    private let scratches = ScratchPool()

    /// Decides with ``inlineEngine`` (at most ``inlineSteps`` steps) in storage kept between
    /// requests.
    func decideHere(_ operation: DatabaseOperation, on root: DataNode?, auth: AuthValue, now: Double) -> Decision {
        scratches.decide(inlineEngine, operation, on: root, auth: auth, now: now)
    }

    /// The source of the open rules.
    package static let openSource = Ruleset.openSource

    /// Open rules: every read and write allowed.
    package static let open = NamespaceRules(ruleset: .open, source: openSource, origin: .openDefault)
}
