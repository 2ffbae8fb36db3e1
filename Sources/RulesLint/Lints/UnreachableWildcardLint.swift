import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `unreachable-wildcard`: see ``UnreachableWildcardLint``.
    public static let unreachableWildcard = LintCode(declaring: "unreachable-wildcard")
}

/// `unreachable-wildcard`: a rule on a `$wildcard` that is never true, but would be for a key a
/// literal sibling takes (``CascadeAnalysis/Evaluation/unreachable``). It replaces the
/// `impossible-condition` findings of that rule.
enum UnreachableWildcardLint: StaticLint {
    static let code = LintCode.unreachableWildcard
    static let category = LintCategory.correctness
    static let summary = "A $wildcard rule that can only hold for keys that literal siblings take."
    static let help =
        "A key named by a literal sibling uses only the literal's rules, so the wildcard never sees it. A wildcard rule that requires its key to be one of those names is never true."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.evaluations.compactMap { e in
            guard let (name, keys) = e.unreachable else { return nil }
            let list = keys.map { "'\($0)'" }.joined(separator: ", ")
            return LintFinding(
                code: code,
                message: "This \(e.rule.kind.key) can only be true for keys that literal siblings take (\(list)); those keys use the literal rules, so the \(name) branch never applies to them and this rule is never true.",
                range: e.rule.keyRange.union(e.rule.valueRange), anchor: e.anchor)
        }
    }
}
