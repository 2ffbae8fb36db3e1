import RulesCompiler
import RulesSyntax

extension Expression {
    /// The direct sub-expressions, left to right.
    package var subexpressions: [Expression] {
        switch kind {
        case .number, .string, .boolean, .null, .regex, .identifier: []
        case .array(let items): items
        case .member(let o, _, _): [o]
        case .index(let o, let i): [o, i]
        case .call(let c, let args): [c] + args
        case .unary(_, let x): [x]
        case .binary(_, let l, let r, _): [l, r]
        case .logical(_, let operands): operands
        case .conditional(let c, let a, let b): [c, a, b]
        }
    }

    /// The receiver when this is a method call's callee: `x` in `x.m(...)` or `x['m'](...)`.
    package var receiver: Expression? {
        switch kind {
        case .member(let object, _, _): object
        case .index(let object, _): object
        default: nil
        }
    }
}
