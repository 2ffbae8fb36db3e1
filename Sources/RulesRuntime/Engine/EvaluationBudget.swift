/// How much work one decision may do (one `decide` call, every rule the operation evaluates
/// included), counted in steps. Running out fails closed: the operation is denied with a reason
/// that names the rule and the data path where the budget ran out (see ``Decision/isBudgetExhausted``).
///
/// What costs a step:
/// - each VM instruction executed, and each rule evaluated (a constant rule too);
/// - one more per 64 bytes of the string that `contains`, `beginsWith`, `endsWith`, `replace`,
///   `toLowerCase` or `toUpperCase` scans, of each string operand of `+` and the comparisons,
///   and of a path given to `child()` or `hasChild()`;
/// - a `matches()` call costs the match limits of its tries (see
///   `CompiledRegex.matches(_:steps:)`): at least 100 steps, at most about ten times the
///   PCRE2 backtracking steps the match took, and at most the 1,000,000-step match limit
///   plus its smaller tries (1,111,100) when a match runs long.
///
/// The default allows about a million ordinary rule evaluations (a write of that many validated
/// children, each matching a regular expression) and stops a rule that backtracks
/// catastrophically on every child after about 45 such children (a fraction of a second).
public struct EvaluationBudget: Sendable, Hashable {
    /// The steps one decision may take.
    public var steps: Int

    /// A budget of `steps` (at least 1).
    public init(steps: Int) {
        self.steps = Swift.max(1, steps)
    }

    /// 50,000,000 steps.
    public static let `default` = EvaluationBudget(steps: 50_000_000)

    /// No practical limit (`Int.max` steps), for callers that bound the work otherwise.
    public static let unlimited = EvaluationBudget(steps: Int.max)
}
