import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `literal-key-beside-wildcard`: see ``LiteralKeyBesideWildcardLint``.
    public static let literalKeyBesideWildcard = LintCode(declaring: "literal-key-beside-wildcard")
}

/// `literal-key-beside-wildcard`: a literal child `f` of a collection, beside its `$wildcard`,
/// where `f` is a field of the records (the wildcard's rules read `newData.child('f')` or require
/// it with `hasChildren`) and the wildcard has no child `f` of its own, and `f` holds only rules
/// (no children). Its rules apply to a record whose key is `f`, not to the field of each record,
/// so they validate nothing.
enum LiteralKeyBesideWildcardLint: StaticLint {
    static let code = LintCode.literalKeyBesideWildcard
    static let category = LintCategory.correctness
    static let summary = "A literal key beside a $wildcard that names a field of its records."
    static let help =
        "Rules at \"field\" beside \"$id\" apply to a record whose key is 'field', not to the field of each record; the records' rules read that field, so the rules were meant inside the $wildcard. As written they validate nothing."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        var out: [LintFinding] = []
        check(context.tree) { out.append($0) }
        return out
    }

    private static func check(_ root: RuleNode, report: (LintFinding) -> Void) {
        root.forEachNode { node in
            guard let (name, record) = node.wildcard else { return }
            let used = record.newDataFieldsRead
            for (key, child) in node.literalChildren where used.contains(key) && record.literalChild(key) == nil {
                guard child.literalChildren.isEmpty, child.wildcard == nil, let rule = child.validate ?? child.write else { continue }
                report(LintFinding(
                    code: .literalKeyBesideWildcard,
                    message: "The rules at \(child.pathDescription) apply to a record whose key is '\(key)', not to the \(key) field of each \(name) record, which the rules at \(record.pathDescription) read: they check nothing a real record holds. Move \"\(key)\" inside \"\(name)\".",
                    range: child.keyRange.union(rule.keyRange), anchor: "\(child.pathDescription) beside \(name)"))
            }
        }
    }
}
