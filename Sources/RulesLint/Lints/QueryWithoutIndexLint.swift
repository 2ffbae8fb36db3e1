import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `query-without-index`: see ``QueryWithoutIndexLint``.
    public static let queryWithoutIndex = LintCode(declaring: "query-without-index")
}

/// `query-without-index`: a `.read` that admits queries ordered by a child (or by value) that the
/// location's `.indexOn` does not list.
enum QueryWithoutIndexLint: StaticLint {
    static let code = LintCode.queryWithoutIndex
    static let category = LintCategory.performance
    static let summary = "A query rule orders by a child that the location does not index."
    static let help =
        "Add the child to .indexOn at this location (\".value\" for orderByValue); without an index the server cannot run the query and clients download and filter the whole list."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        var out: [LintFinding] = []
        context.tree.forEachNode { node in
            for kind in RuleKind.allCases where kind == .read {
                guard let rule = node.rule(kind), case .expression(let checked) = rule.body else { continue }
                let anchor = "\(node.pathDescription) \(kind.key)"
                check(checked, node: node) { out.append(LintFinding(code: code, message: $1, range: $0, anchor: anchor)) }
            }
        }
        return out
    }

    private static func check(_ checked: CheckedExpression, node: RuleNode, report: (SourceRange, String) -> Void) {
        var seen: Set<String> = []
        visit(checked.root, checked) { key, range in
            guard !node.indexOn.contains(key), seen.insert(key).inserted else { return }
            let what = key == ".value" ? "ordered by value" : "ordered by the child '\(key)'"
            report(range,
                "This .read admits queries \(what), but \(node.pathDescription) has no \".indexOn\" for \"\(key)\"; without it the server cannot run the query and clients download and filter the whole list.")
        }
    }

    private static func visit(_ e: Expression, _ checked: CheckedExpression, _ found: (String, SourceRange) -> Void) {
        switch e.kind {
        case .binary(let op, let l, let r, _) where op == .equal || op == .strictEqual:
            for (x, y) in [(l, r), (r, l)] {
                guard case .queryField(let f)? = checked.resolution(of: x) else { continue }
                if f == .orderByChild, case .string(let key)? = ConstantFolder.fold(y) { found(key, checked.fileRange(of: y)) }
                if f == .orderByValue, case .bool(true)? = ConstantFolder.fold(y) { found(".value", checked.fileRange(of: x)) }
            }
        case .logical(_, let operands):
            for o in operands {
                if case .queryField(.orderByValue)? = checked.resolution(of: o) { found(".value", checked.fileRange(of: o)) }
            }
        default:
            break
        }
        if case .queryField(.orderByValue)? = checked.resolution(of: e), e === checked.root {
            found(".value", checked.fileRange(of: e))
        }
        for c in e.subexpressions { visit(c, checked, found) }
    }
}
