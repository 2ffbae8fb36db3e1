/// Makes the fast code of a ruleset from its plain code: the code that runs when nothing is
/// traced.
///
/// The fast code has the plain code's length and indexes, so jump targets, source ranges and the
/// engine's per-instruction tables apply to both. Where a common sequence starts, its first
/// instruction becomes a fused one that does the sequence's work in one step (one step of the
/// evaluation budget, too); the instructions it absorbs stay where they are, so a jump that lands
/// on one of them still runs it. And every instruction that may leave a boolean carries the
/// ``Continuation`` that takes the `!`, `&&`, `||` or `return` after it along.
///
/// The sequences (see ``Opcode``):
/// - `auth.name` → ``Opcode/authMember``; `auth == null`, `auth != null` →
///   ``Opcode/authIsNull``, ``Opcode/authIsNotNull``;
/// - `data.val()`, `newData.exists()`, … → ``Opcode/dataQuery``, ``Opcode/newDataQuery``;
/// - `x.child('name').val()`, … → ``Opcode/childConstQuery``.
///
/// A traced run uses the plain code, so an explanation sees every value.
package enum BytecodeFuser {
    /// The fast code of `code`, whose rules are `rules` (no sequence crosses the end of a rule).
    package static func fuse(_ code: [Instruction], rules: [CompiledRule]) -> [Instruction] {
        var fast = code
        for rule in rules where rule.constant == nil {
            // A hand-built ruleset may describe code outside the array; the verifier reports it.
            guard rule.codeStart >= 0, rule.codeStart <= rule.codeEnd, rule.codeEnd <= code.count else { continue }
            for pc in rule.codeStart..<rule.codeEnd {
                fast[pc] = fused(code, at: pc, end: rule.codeEnd)
            }
        }
        return fast
    }

    /// The fast form of the instruction at `pc` of a rule whose code ends at `end`.
    static func fused(_ code: [Instruction], at pc: Int, end: Int) -> Instruction {
        func opcode(_ i: Int) -> Opcode? { i < end ? code[i].opcode : nil }
        var ins = code[pc]
        switch ins.opcode {
        case .loadAuth:
            if opcode(pc + 1) == .property {
                ins = Instruction(.authMember, code[pc + 1].operand)
            } else if opcode(pc + 1) == .pushNull, let compare = opcode(pc + 2), compare == .equal || compare == .notEqual {
                ins = Instruction(compare == .equal ? .authIsNull : .authIsNotNull)
            }
        case .loadData, .loadNewData:
            if opcode(pc + 1)?.isSnapshotQuery == true {
                ins = Instruction(ins.opcode == .loadData ? .dataQuery : .newDataQuery)
            }
        case .childConst:
            if opcode(pc + 1)?.isSnapshotQuery == true {
                ins = Instruction(.childConstQuery, ins.operand)
            }
        default:
            break
        }
        guard ins.opcode.mayPushBoolean else { return ins }
        var next = pc + ins.opcode.fusedLength
        let negated = opcode(next) == .not
        if negated { next += 1 }
        ins.then = Continuation.carrying(negated: negated, then: opcode(next))
        return ins
    }
}
