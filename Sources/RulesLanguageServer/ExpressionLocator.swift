import RulesCompiler
import RulesSyntax

/// Finds the sub-expression of a checked rule under a file offset.
enum ExpressionLocator {
    /// The innermost node of `checked` whose file range holds `offset`, with the path of nodes
    /// from the root to it.
    static func node(at offset: Int, in checked: CheckedExpression) -> [Expression] {
        var chain: [Expression] = []
        var current: Expression? = checked.root
        while let e = current {
            let r = checked.fileRange(of: e)
            guard r.start <= offset && offset <= r.end else { break }
            chain.append(e)
            current = children(of: e).last { c in
                let cr = checked.fileRange(of: c)
                return cr.start <= offset && offset <= cr.end
            }
        }
        return chain
    }

    /// The direct sub-expressions, in source order.
    static func children(of e: Expression) -> [Expression] {
        switch e.kind {
        case .number, .string, .boolean, .null, .regex, .identifier: []
        case .array(let items): items
        case .member(let object, _, _): [object]
        case .index(let object, let index): [object, index]
        case .call(let callee, let arguments): [callee] + arguments
        case .unary(_, let operand): [operand]
        case .binary(_, let l, let r, _): [l, r]
        case .logical(_, let operands): operands
        case .conditional(let c, let t, let f): [c, t, f]
        }
    }
}
