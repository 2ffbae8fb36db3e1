import RulesCompiler
import RulesSyntax

/// The rules virtual machine: runs one compiled rule to true, false or a runtime error (spec §5–§7).
///
/// A VM holds only scratch space (its stack), so each thread or request uses its own while the
/// ``CompiledRuleset`` is shared. Every check that the static checker cannot make is made here,
/// and anything unexpected is a runtime error: the rule fails, nothing traps.
package struct VM: Sendable {
    /// The stack's storage: `.null` in every slot between runs (each run drains it), so a VM
    /// kept between decisions holds no values.
    private var stack: [Value] = []
    /// `auth` members looked up in the current decision (see ``beginDecision()``).
    private var authMembers = AuthMemberCache()
    /// What is left of the decision's ``EvaluationBudget``, in steps: below zero once it ran
    /// out, after which every run fails at once.
    var remainingSteps = EvaluationBudget.default.steps

    /// Creates a VM.
    package init() {}

    /// Evaluates rule `ruleIndex` of `ruleset`.
    package mutating func run<T: Tracer>(
        _ ruleIndex: Int, in ruleset: CompiledRuleset, context: EvaluationContext,
        snapshots: inout SnapshotTable, tracer: inout T
    ) -> RuleOutcome {
        // The tables are trusted below only because the verifier checked them (see
        // CompiledRuleset.defect); an unchecked ruleset or a bad index fails the rule.
        if let defect = ruleset.defect {
            return .error(RuntimeError("Internal error: the compiled rules are inconsistent (\(defect)).", range: .at(0)))
        }
        guard ruleset.rules.indices.contains(ruleIndex) else {
            return .error(RuntimeError("Internal error: there is no rule \(ruleIndex).", range: .at(0)))
        }
        for entry in [context.root, context.data, context.newData] where entry < -1 || Int(entry) >= snapshots.entries.count {
            return .error(RuntimeError("Internal error: snapshot \(entry) is not in the table.", range: .at(0)))
        }
        let rule = ruleset.rules[ruleIndex]
        if let c = rule.constant { return .value(c) }
        // Each call may come with another user, and is one decision with its own budget.
        beginDecision()
        remainingSteps = EvaluationBudget.default.steps
        return run(code: rule.codeStart..<rule.codeEnd, in: ruleset, context: context, snapshots: &snapshots, tracer: &tracer)
    }

    /// Forgets what the last decision looked up in `auth`: call it whenever `auth` may change.
    mutating func beginDecision() {
        authMembers.removeAll()
    }

    /// Evaluates the code of one rule (`codeStart ..< codeEnd` of a ``CompiledRule``). With the
    /// engine's `tables`, constant keys are looked up with their precomputed ranks. An untraced
    /// run executes the ruleset's fast code, a traced one its plain code (see ``BytecodeFuser``).
    mutating func run<T: Tracer>(
        code range: Range<Int>, in ruleset: CompiledRuleset, tables: EngineTables? = nil, context: EvaluationContext,
        snapshots: inout SnapshotTable, tracer: inout T
    ) -> RuleOutcome {
        // The stack's slots all hold a value between runs (`.null`, which owns nothing), so the
        // array stays valid; during a run the loop moves values in and out of it directly.
        let needed = Swift.max(ruleset.maxStackDepth, 1)
        if stack.count < needed { stack = [Value](repeating: .null, count: needed) }
        let instructions = T.self == NoTracer.self ? ruleset.fastInstructions : ruleset.instructions
        return instructions.withUnsafeBufferPointer { code in
            stack.withUnsafeMutableBufferPointer { slots in
                var window = VMStack(slots)
                let outcome = Self.execute(
                    code, from: range.lowerBound, to: range.upperBound, ruleset, tables, context, &snapshots, &tracer, &window,
                    &authMembers, &remainingSteps)
                window.drain()
                return outcome
            }
        }
    }

    // MARK: - The loop

    /// Runs `code[start ..< end]`: one step of the budget per instruction (a fused instruction
    /// and what its continuation carries out count once), each opcode handed to its handler
    /// (in `VM+Snapshots`, `VM+Strings`, `VM+Auth`, `VM+Operators`). A handler's error fails
    /// the rule at the instruction's source range.
    private static func execute<T: Tracer>(
        _ code: UnsafeBufferPointer<Instruction>, from start: Int, to end: Int, _ rs: CompiledRuleset,
        _ tables: EngineTables?, _ ctx: EvaluationContext, _ snaps: inout SnapshotTable, _ tracer: inout T,
        _ stack: inout VMStack, _ authMembers: inout AuthMemberCache, _ steps: inout Int
    ) -> RuleOutcome {
        let tracing = !(T.self == NoTracer.self)
        var pc = start
        while pc < end {
            steps &-= 1
            if steps < 0 { return fail(exhaustedError(), pc, rs) }
            let ins = code[pc]
            var result: Value
            do throws(OperatorError) {
                switch ins.opcode {
                case .pushTrue: result = .bool(true)
                case .pushFalse: result = .bool(false)
                case .pushNull: result = .null
                case .pushNumber: result = .number(rs.numbers[Int(ins.operand)])
                case .pushString: result = .string(rs.strings[Int(ins.operand)])
                case .loadAuth: result = Value(ctx.auth)
                case .loadRoot: result = ctx.root >= 0 ? .snapshot(ctx.root) : .null
                case .loadData: result = ctx.data >= 0 ? .snapshot(ctx.data) : .null
                case .loadNewData: result = ctx.newData >= 0 ? .snapshot(ctx.newData) : .null
                case .loadNow: result = .number(ctx.now)
                case .loadWildcard: result = try wildcard(ins.operand, ctx)
                case .loadQueryField: result = queryField(Int(ins.operand), ctx.query)
                case .property: result = try property(try stack.take(), rs.strings[Int(ins.operand)]).get()
                case .index:
                    let i = try stack.take()
                    result = try index(try stack.take(), i).get()
                case .stringLength: result = try length(try stack.take())
                case .val, .getPriority, .exists, .isNumber, .isString, .isBoolean, .hasAnyChildren, .parent:
                    result = try snapshotMethod(ins.opcode, try stack.take(), &snaps)
                case .childConst, .hasChildConst:
                    result = try childConst(ins.opcode, try stack.take(), ins.operand, at: pc, rs, tables, &snaps)
                case .child, .hasChild:
                    let p = try stack.take()
                    result = try child(ins.opcode, try stack.take(), p, &snaps, &steps)
                case .hasChildren: result = try hasChildren(Int(ins.operand), at: pc, &stack, tables, &snaps)
                case .contains, .beginsWith, .endsWith:
                    let a = try stack.take()
                    result = try test(ins.opcode, try stack.take(), a, &steps)
                case .replace:
                    let b = try stack.take(), a = try stack.take()
                    result = try replace(try stack.take(), a, b, &steps)
                case .toLowerCase, .toUpperCase: result = try changeCase(ins.opcode, try stack.take(), &steps)
                case .matches: result = try matches(try stack.take(), rs.regexes[Int(ins.operand)], &steps)
                case .add, .subtract, .multiply, .divide, .remainder, .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual:
                    let r = try stack.take()
                    result = try binary(ins.opcode, try stack.take(), r, &steps)
                case .negate: result = try negate(try stack.take())
                case .not: result = try not(try stack.take())
                case .jumpIfFalseOrPop:
                    pc = try shortCircuit(ins, jumpingOn: false, at: pc, &stack)
                    continue
                case .jumpIfTrueOrPop:
                    pc = try shortCircuit(ins, jumpingOn: true, at: pc, &stack)
                    continue
                case .jumpIfFalse:
                    pc = try branch(ins, at: pc, &stack)
                    continue
                case .jump:
                    pc = Int(ins.operand)
                    continue
                case .return: return .value(try Self.result(&stack))
                // The fused instructions (fast code only).
                case .authMember: result = authMember(ins.operand, at: &pc, ctx, rs, &authMembers) ?? Value(ctx.auth)
                case .authIsNull:
                    result = .bool(signedOut(ctx))
                    pc += 2
                case .authIsNotNull:
                    result = .bool(!signedOut(ctx))
                    pc += 2
                case .dataQuery: result = query(at: &pc, of: ctx.data, code, &snaps)
                case .newDataQuery: result = query(at: &pc, of: ctx.newData, code, &snaps)
                case .childConstQuery: result = try childConstQuery(try stack.take(), ins.operand, at: &pc, code, rs, tables, &snaps)
                }
            } catch {
                return fail(error, pc, rs)
            }
            if tracing {
                let node = rs.instructionNodes[pc]
                if node >= 0 { tracer.record(node: node, value: result, snapshots: snaps) }
            } else if Self.carries(ins.then), case .bool(var b) = result {
                // The fast code carries a boolean into the `!`, `&&`, `||` or `return` after it
                // (which stay in the code, `pc` moving onto each): kept on the stack only when
                // an operator decides with it.
                if Self.negates(ins.then) {
                    b = !b
                    result = .bool(b)
                    pc += 1
                }
                switch ins.then {
                case .and, .or, .notAnd, .notOr:
                    // `&&` goes to its end on false, `||` on true, with the value kept.
                    if b == Self.isOr(ins.then) {
                        guard stack.push(result) else { return fail(VMStack.full(), pc, rs) }
                        pc = Int(code[pc + 1].operand)
                    } else {
                        pc += 2
                    }
                    continue
                case .return, .notReturn:
                    return .value(b)
                case .push, .not:
                    break
                }
            }
            guard stack.push(result) else { return fail(VMStack.full(), pc, rs) }
            pc += 1
        }
        return fail(OperatorError("The rule ended without a result."), max(start, end - 1), rs)
    }

    /// The rule fails at instruction `pc`'s source range.
    @inline(never)
    private static func fail(_ error: OperatorError, _ pc: Int, _ rs: CompiledRuleset) -> RuleOutcome {
        let range = pc < rs.instructionRanges.count ? rs.instructionRanges[pc] : SourceRange.at(0)
        return .error(RuntimeError(error.message, range: range))
    }

    /// The run ends because the decision's budget ran out (``remainingSteps`` is below zero);
    /// the engine writes the reason, naming the rule and the data path.
    @inline(never)
    static func exhaustedError() -> OperatorError {
        OperatorError("evaluation budget exhausted")
    }
}
