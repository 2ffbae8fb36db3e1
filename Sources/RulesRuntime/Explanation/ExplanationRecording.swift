/// What an explained decision keeps besides its log of evaluations: the limits, the count of
/// evaluations made, the bytes recorded, the evaluation kept aside, and the redaction. A class,
/// made only when explaining, so that a plain decision's evaluator carries one empty reference.
///
/// `@unchecked Sendable`: one is made for one explained decision and used only by the evaluator
/// that makes it, on one thread; evaluators kept between decisions (``DecisionScratch``) never
/// explain and hold none.
final class ExplanationRecording: @unchecked Sendable {
    /// An evaluation as the tracer saw it, recorded in full only when it is kept: within
    /// ``ExplanationLimits``, or because it decides.
    struct Pending {
        var id: Int
        var rule: Int
        var outcome: RuleOutcome
        var dataEntry: Int32
        var wildcardKeys: [String]
        var recorded: [Int32: String]
        var stored: [Int32: DataNode?]
        var snapshots: [Int32: Int32]
    }

    let limits: ExplanationLimits
    /// Whether values the caller may not read are to be withheld.
    let redact: Bool
    /// The evaluations so far, kept in the log or not (each one's number is its `id`).
    var evaluationCount = 0
    /// The bytes of value text kept.
    var recordedBytes = 0
    /// Evaluations made but not recorded.
    var omittedEvaluations = 0
    /// The last evaluation not kept, until the next one.
    var pending: Pending?
    /// What the caller may read, when redacting (made once the tree is known).
    var redaction: Redaction?
    /// When redacting: the same evaluations unredacted, for the host's own log (one run gives
    /// both explanations).
    var unredactedLog: [RuleEvaluation] = []

    init(limits: ExplanationLimits, redact: Bool) {
        self.limits = limits
        self.redact = redact
    }
}
