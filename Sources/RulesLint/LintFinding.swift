import RulesCompiler
import RulesSyntax

/// One lint finding: the diagnostic to report and a location-independent anchor for baselines.
public struct LintFinding: Sendable, Hashable {
    /// The lint.
    public let code: LintCode
    /// The warning, with its exact range.
    public var diagnostic: Diagnostic
    /// Where it is in the rule tree, independent of line numbers: e.g. `/users/$uid .write`.
    public let anchor: String
    /// Counterexamples the linter proposes for a security finding, most likely first; nothing is
    /// run yet (see ``LintWitness``).
    package var witnessCandidates: [LintWitness] = []
    /// The first candidate the engine confirmed, with its verdicts (set by `RulesLint`).
    package var witness: LintWitness?
    /// The other places the finding concerns (the rules it trusts or voids, the locations it
    /// exposes), in file order.
    public var related: [LintRelated] = []
    /// Whether the witness search ran for this finding (and found nothing when ``witness`` is nil).
    package var witnessSearched = false
    /// Whether the access model widened a static lint to it (``ModelWidenedLint``).
    package var widened = false

    /// Creates a finding.
    package init(code: LintCode, message: String, range: SourceRange, anchor: String, witnessCandidates: [LintWitness] = []) {
        self.code = code
        self.diagnostic = .warning(code.diagnosticCode, message, at: range)
        self.anchor = anchor
        self.witnessCandidates = witnessCandidates
    }

    /// `confirmed` (a witness the engine ran), `unconfirmed` (a security finding with no witness
    /// found) or nil (not a security finding, or not searched).
    public var witnessStatus: String? {
        guard code.securitySeverity != nil, witnessSearched else { return nil }
        return witness == nil ? "unconfirmed" : "confirmed"
    }
}
