import RulesSyntax

/// The expressions one rules file has already parsed and checked, by their text.
///
/// Large rules files repeat their expressions (a section per collection with the same `.write`
/// and `.validate` rules, the same `auth != null` everywhere). A syntax tree depends only on the
/// expression's text and the limits, and a check only on the tree, the rule kind and the
/// wildcard names in scope, so a repeat takes the earlier result: the tree is shared (it is
/// immutable) and only the file position is the repeat's own. Checks that reported anything are
/// never reused, so every diagnostic is reported where it was found. Texts and wildcard names
/// are compared by their bytes, as the rules language compares them.
struct ExpressionCache {
    /// One expression text: its parse, and its clean checks so far.
    private struct Entry {
        var parsed: ParsedExpression
        var checks: [(kind: RuleKind, wildcards: [String], checked: CheckedExpression)] = []
    }

    /// Where a text's entry is.
    typealias Slot = Int

    /// The entries, and their slots by text: a text is hashed twice when first seen (looked up,
    /// then added) and once per repeat.
    private var entries: [Entry] = []
    private var slots: [ExactText: Slot] = [:]
    /// Regular expression literals validated and compiled so far.
    let regexes = RegexCache()

    /// Where `text`'s entry is, if the text was seen before.
    func find(_ text: String) -> Slot? { slots[ExactText(text)] }

    /// The earlier clean check at `entry` as a `kind` rule under `wildcards`, moved to `source`.
    func checked(at entry: Slot, kind: RuleKind, wildcards: [String], source: ExpressionSource)
        -> CheckedExpression?
    {
        for check in entries[entry].checks where check.kind == kind && Self.same(check.wildcards, wildcards) {
            return check.checked.moved(to: source)
        }
        return nil
    }

    /// The parse at `entry`, or `text` parsed with `limits` (the same for the whole file) and
    /// remembered.
    mutating func parse(_ text: String, at entry: Slot?, limits: ExpressionLimits)
        -> (ParsedExpression, Slot)
    {
        if let entry { return (entries[entry].parsed, entry) }
        let parsed = ExpressionParser.parse(text, limits: limits)
        slots[ExactText(text)] = entries.count
        entries.append(Entry(parsed: parsed))
        return (parsed, entries.count - 1)
    }

    /// Remembers a check of the text at `entry` that produced no diagnostic.
    mutating func remember(
        _ result: CheckedExpression, at entry: Slot, kind: RuleKind, wildcards: [String]
    ) {
        entries[entry].checks.append((kind, wildcards, result))
    }

    private static func same(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { CompiledNode.sameBytes($0, $1) }
    }
}
