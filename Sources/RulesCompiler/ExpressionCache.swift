import RulesSyntax

/// The expressions one rules file has already parsed and checked, by their text.
///
/// Large rules files repeat their expressions (a section per collection with the same `.write`
/// and `.validate` rules, the same `auth != null` everywhere). A syntax tree depends only on the
/// expression's text and the limits, and a check only on the tree, the rule kind and the
/// wildcard names in scope, so a repeat takes the earlier result: the tree is shared (it is
/// immutable) and only the file position is the repeat's own. Checks that reported anything are
/// never reused, so every diagnostic is reported where it was found.
struct ExpressionCache {
    /// Texts and names are compared by their bytes, as the rules language compares them.
    private struct CheckKey: Hashable {
        var text: ExactText
        var kind: RuleKind
        var wildcards: [ExactText]

        init(_ text: String, _ kind: RuleKind, _ wildcards: [String]) {
            self.text = ExactText(text)
            self.kind = kind
            self.wildcards = wildcards.map(ExactText.init)
        }
    }

    private var parsed: [ExactText: ParsedExpression] = [:]
    private var checked: [CheckKey: CheckedExpression] = [:]
    /// Regular expression literals validated and compiled so far.
    let regexes = RegexCache()

    /// `text` parsed with `limits` (the same limits for the whole file).
    mutating func parse(_ text: String, limits: ExpressionLimits) -> ParsedExpression {
        let key = ExactText(text)
        if let known = parsed[key] { return known }
        let result = ExpressionParser.parse(text, limits: limits)
        parsed[key] = result
        return result
    }

    /// The earlier clean check of `text` as a `kind` rule under `wildcards`, moved to `source`.
    func checked(_ text: String, kind: RuleKind, wildcards: [String], source: ExpressionSource) -> CheckedExpression? {
        checked[CheckKey(text, kind, wildcards)]?.moved(to: source)
    }

    /// Remembers a check that produced no diagnostic.
    mutating func remember(_ result: CheckedExpression, text: String, kind: RuleKind, wildcards: [String]) {
        checked[CheckKey(text, kind, wildcards)] = result
    }
}
