import RulesSyntax

/// Folds sub-expressions whose value is known at compile time and cannot be a runtime error:
/// literals, arithmetic and comparisons between literals, `!` of a literal, `?:` with a literal
/// condition, and leading literal operands of `&&`/`||`.
///
/// Anything that might fail at runtime is left alone so that the error still happens: `x && false`
/// is not folded (x may fail first), and neither is `'a' + 1` (its formatting lives in the runtime).
package enum ConstantFolder {
    /// A compile-time value.
    package enum Constant: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
    }

    /// The value of `e`, when it is a constant.
    package static func fold(_ e: Expression) -> Constant? {
        switch e.kind {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .boolean(let b): return .bool(b)
        case .null: return .null
        case .unary(.not, let x):
            if case .bool(let b)? = fold(x) { return .bool(!b) }
            return nil
        case .unary(.negate, let x):
            if case .number(let n)? = fold(x) { return .number(-n) }
            return nil
        case .binary(let op, let l, let r, _):
            guard let a = fold(l), let b = fold(r) else { return nil }
            return binary(op, a, b)
        case .logical(let op, let operands):
            // Leading constants decide or drop out; the first non-constant operand stops folding.
            for (i, o) in operands.enumerated() {
                guard case .bool(let b)? = fold(o) else { return nil }
                if (op == .and && !b) || (op == .or && b) { return .bool(b) }
                if i == operands.count - 1 { return .bool(b) }
            }
            return nil
        case .conditional(let c, let a, let b):
            guard case .bool(let cond)? = fold(c) else { return nil }
            return fold(cond ? a : b)
        default:
            return nil
        }
    }

    private static func binary(_ op: BinaryOperator, _ a: Constant, _ b: Constant) -> Constant? {
        switch op {
        case .equal, .strictEqual: return .bool(equal(a, b))
        case .notEqual, .strictNotEqual: return .bool(!equal(a, b))
        default: break
        }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op {
            case .add: return .number(x + y)
            case .subtract: return .number(x - y)
            case .multiply: return .number(x * y)
            case .divide: return .number(y == 0 ? .nan : x / y)
            case .remainder: return .number(x.truncatingRemainder(dividingBy: y))
            case .less: return .bool(x < y)
            case .lessOrEqual: return .bool(x <= y)
            case .greater: return .bool(x > y)
            case .greaterOrEqual: return .bool(x >= y)
            default: return nil
            }
        case (.string(let x), .string(let y)):
            if op == .add { return .string(x + y) }
            return nil  // ordering of strings is left to the runtime's code-unit comparison
        default:
            return nil
        }
    }

    /// Strict equality of two constants (strings by their bytes); the linter's abstract
    /// evaluator uses it too.
    package static func equal(_ a: Constant, _ b: Constant) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): Array(x.utf8) == Array(y.utf8)
        default: false
        }
    }
}
