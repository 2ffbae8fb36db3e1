/// How much one explanation records, so that explaining a decision costs memory in proportion
/// to the operation, never a multiple of it: a write of 50,000 validated children evaluates
/// 50,000 rules, and recording each one in full (its sub-expression values, its data path) once
/// took 140 times the write's own size.
///
/// Past either limit, further evaluations are counted but not recorded, except the one that
/// decides, which is always recorded; ``Explanation/omittedEvaluations`` says how many were
/// left out, and ``Explanation/text`` ends with `… and 49,990 more evaluations not recorded`.
/// Each value recorded is already short (strings are cut at 80 characters, objects shown by a
/// few keys; see ``ExplanationFormat``), so the text of one evaluation is bounded by its rule.
public struct ExplanationLimits: Sendable, Hashable {
    /// The most rule evaluations recorded (the deciding one is recorded in addition).
    public var maxEvaluations: Int
    /// The most bytes of value text recorded: sub-expression values, the deciding value and
    /// what made it false, summed over the evaluations recorded. The evaluation that crosses it
    /// is recorded whole; the ones after it are not.
    public var maxValueBytes: Int

    /// Limits of `maxEvaluations` evaluations and `maxValueBytes` bytes of value text.
    public init(maxEvaluations: Int, maxValueBytes: Int) {
        self.maxEvaluations = Swift.max(0, maxEvaluations)
        self.maxValueBytes = Swift.max(0, maxValueBytes)
    }

    /// 1,000 evaluations and 1 MiB of value text.
    public static let `default` = ExplanationLimits(maxEvaluations: 1_000, maxValueBytes: 1 << 20)
}
