import RulesCompiler

/// The VM's operators and its control flow: arithmetic and comparison, `-` and `!`, the jumps of
/// `&&`, `||` and `?:`, and `return`.
extension VM {
    /// A binary operator. Joining or comparing long strings costs in proportion to their length.
    @inline(__always)
    static func binary(_ op: Opcode, _ l: Value, _ r: Value, _ steps: inout Int) throws(OperatorError) -> Value {
        if case .string(let ls) = l { steps &-= ls.utf8.count >> 6 }
        if case .string(let rs) = r { steps &-= rs.utf8.count >> 6 }
        return try Operators.binary(op, l, r).get()
    }

    /// `-x`.
    @inline(__always)
    static func negate(_ v: Value) throws(OperatorError) -> Value {
        guard case .number(let n) = v else { throw OperatorError("Invalid - expression: operand is \(v.typeName), not a number.") }
        return .number(-n)
    }

    /// `!x`.
    @inline(__always)
    static func not(_ v: Value) throws(OperatorError) -> Value {
        guard case .bool(let b) = v else { throw OperatorError("! only operates on booleans, got \(v.typeName).") }
        return .bool(!b)
    }

    /// `jumpIfFalseOrPop` (`jumpingOn` false) or `jumpIfTrueOrPop` (true) at `pc`: where to go
    /// on. The boolean on top stays when the jump is taken (it is the result of the `&&` or `||`)
    /// and is dropped otherwise.
    @inline(__always)
    static func shortCircuit(_ ins: Instruction, jumpingOn: Bool, at pc: Int, _ stack: inout VMStack) throws(OperatorError) -> Int {
        guard case .bool(let b) = try stack.top() else {
            throw OperatorError("Expected a boolean operand, got \(try stack.top().typeName).")
        }
        if b == jumpingOn { return Int(ins.operand) }
        stack.truncate(to: stack.count - 1)
        return pc + 1
    }

    /// `jumpIfFalse` at `pc` (the test of `?:`): where to go on.
    @inline(__always)
    static func branch(_ ins: Instruction, at pc: Int, _ stack: inout VMStack) throws(OperatorError) -> Int {
        let v = try stack.take()
        guard case .bool(let b) = v else { throw OperatorError("The condition of ?: is \(v.typeName), not a boolean.") }
        return b ? pc + 1 : Int(ins.operand)
    }

    /// `return`: the rule's result.
    @inline(__always)
    static func result(_ stack: inout VMStack) throws(OperatorError) -> Bool {
        let v = try stack.take()
        guard case .bool(let b) = v else { throw OperatorError("The rule gave \(v.typeName), not a boolean.") }
        return b
    }

    // Opcodes and continuations are told apart by pattern matching, not `==`: the types belong
    // to RulesCompiler, and across modules `==` is a call through the Equatable conformance,
    // which the hot loop cannot afford.

    /// Whether a continuation carries its boolean into an `||` (as opposed to an `&&`).
    @inline(__always)
    static func isOr(_ c: Continuation) -> Bool {
        switch c {
        case .or, .notOr: true
        default: false
        }
    }

    /// Whether a continuation does more than push.
    @inline(__always)
    static func carries(_ c: Continuation) -> Bool {
        if case .push = c { return false }
        return true
    }

    /// Whether a continuation negates the result first.
    @inline(__always)
    static func negates(_ c: Continuation) -> Bool {
        switch c {
        case .not, .notAnd, .notOr, .notReturn: true
        default: false
        }
    }
}
