import RulesCompiler

/// The runtime meaning of the binary operators (spec §7): strict equality with no coercion,
/// ordering only between two numbers or two strings, `+` on numbers and strings, arithmetic on
/// numbers only, and `x / 0` giving NaN.
package enum Operators {
    /// Applies a binary operator opcode.
    package static func binary(_ op: Opcode, _ l: Value, _ r: Value) -> Result<Value, OperatorError> {
        switch op {
        case .equal: return .success(.bool(strictEqual(l, r)))
        case .notEqual: return .success(.bool(!strictEqual(l, r)))
        case .add:
            switch (l, r) {
            case (.number(let a), .number(let b)): return .success(.number(a + b))
            case (.string(let a), .string(let b)): return concatenate(a, b)
            case (.string(let a), .number(let b)): return concatenate(a, JSNumberFormatter.string(b))
            case (.number(let a), .string(let b)): return concatenate(JSNumberFormatter.string(a), b)
            default:
                let side = isAddable(l) ? "right" : "left"
                let v = isAddable(l) ? r : l
                return .failure(OperatorError("Invalid + expression: \(side) operand is \(v.typeName), not a number or string."))
            }
        case .subtract, .multiply, .divide, .remainder:
            guard case .number(let a) = l else { return .failure(notNumber(op, "left", l)) }
            guard case .number(let b) = r else { return .failure(notNumber(op, "right", r)) }
            switch op {
            case .subtract: return .success(.number(a - b))
            case .multiply: return .success(.number(a * b))
            // Production gives NaN for any division by zero, not ±Infinity.
            case .divide: return .success(.number(b == 0 ? .nan : a / b))
            default: return .success(.number(a.truncatingRemainder(dividingBy: b)))
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let c: Int
            switch (l, r) {
            case (.number(let a), .number(let b)):
                // NaN compares false with everything.
                if a.isNaN || b.isNaN { return .success(.bool(false)) }
                c = a < b ? -1 : (a > b ? 1 : 0)
            case (.string(let a), .string(let b)):
                c = StringSemantics.compare(a, b)
            default:
                let sym = symbol(op)
                if case .null = l { return .failure(OperatorError("Invalid \(sym) expression: left operand is null.")) }
                if case .null = r { return .failure(OperatorError("Invalid \(sym) expression: right operand is null.")) }
                return .failure(OperatorError("Invalid \(sym) expression: cannot compare \(l.typeName) with \(r.typeName)."))
            }
            switch op {
            case .less: return .success(.bool(c < 0))
            case .lessOrEqual: return .success(.bool(c <= 0))
            case .greater: return .success(.bool(c > 0))
            default: return .success(.bool(c >= 0))
            }
        default:
            return .failure(OperatorError("Internal error: \(op.mnemonic) is not a binary operator."))
        }
    }

    /// `a + b` for strings, refused before it is built when the result would be longer than
    /// ``DataLimits/maxStringBytes``.
    static func concatenate(_ a: String, _ b: String) -> Result<Value, OperatorError> {
        let length = a.utf8.count + b.utf8.count
        guard length <= DataLimits.maxStringBytes else {
            return .failure(OperatorError("Invalid + expression: the result would be \(length) bytes, over the \(DataLimits.maxStringBytes)-byte string limit."))
        }
        return .success(.string(a + b))
    }

    /// `==` as the server has it: same type and same value; never an error.
    package static func strictEqual(_ l: Value, _ r: Value) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return StringSemantics.equal(a, b)
        // Objects (val() of a node with children, auth objects) are equal to nothing, themselves
        // included: there is no object identity to compare in rules.
        default: return false
        }
    }

    private static func isAddable(_ v: Value) -> Bool {
        switch v {
        case .number, .string: true
        default: false
        }
    }

    private static func notNumber(_ op: Opcode, _ side: String, _ v: Value) -> OperatorError {
        OperatorError("Invalid \(symbol(op)) expression: \(side) operand is \(v.typeName), not a number.")
    }

    private static func symbol(_ op: Opcode) -> String {
        switch op {
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .remainder: "%"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        default: op.mnemonic
        }
    }
}
