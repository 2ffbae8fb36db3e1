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
    /// engine's `tables`, constant keys are looked up with their precomputed ranks.
    mutating func run<T: Tracer>(
        code range: Range<Int>, in ruleset: CompiledRuleset, tables: EngineTables? = nil, context: EvaluationContext,
        snapshots: inout SnapshotTable, tracer: inout T
    ) -> RuleOutcome {
        // The stack's slots all hold a value between runs (`.null`, which owns nothing), so the
        // array stays valid; during a run the loop moves values in and out of it directly.
        let needed = Swift.max(ruleset.maxStackDepth, 1)
        if stack.count < needed { stack = [Value](repeating: .null, count: needed) }
        return ruleset.instructions.withUnsafeBufferPointer { code in
            stack.withUnsafeMutableBufferPointer { slots in
                var window = StackWindow(slots)
                let outcome = Self.execute(
                    code, from: range.lowerBound, to: range.upperBound, ruleset, tables, context, &snapshots, &tracer, &window,
                    &authMembers, &remainingSteps)
                window.drain()
                return outcome
            }
        }
    }

    // MARK: - The loop

    /// The stack during one run: `slots[0 ..< count]` hold values, the slots above are free.
    /// Pushing past the end is refused (the verifier does not bound the depth, so the loop
    /// checks), and popping moves the value out: no copies, no uniqueness checks.
    struct StackWindow {
        let base: UnsafeMutablePointer<Value>
        let capacity: Int
        var count = 0

        init(_ slots: UnsafeMutableBufferPointer<Value>) {
            // A non-empty array always has storage.
            base = slots.baseAddress!
            capacity = slots.count
        }

        /// Adds a value; false (and nothing added) when the stack is full.
        @inline(__always)
        mutating func push(_ value: consuming Value) -> Bool {
            guard count < capacity else { return false }
            (base + count).initialize(to: value)
            count &+= 1
            return true
        }

        /// Removes and returns the top value, or nil when empty.
        @inline(__always)
        mutating func pop() -> Value? {
            guard count > 0 else { return nil }
            count &-= 1
            return (base + count).move()
        }

        /// Drops the values from `index` up.
        @inline(__always)
        mutating func truncate(to index: Int) {
            // One by one: `deinitialize(count:)` goes through the runtime's generic array
            // destroy, which costs more than the few values dropped here.
            while count > index {
                count &-= 1
                _ = (base + count).move()
            }
        }

        /// Puts every slot back to `.null` (the values held are released). Slot by slot, for the
        /// same reason as ``truncate(to:)``.
        mutating func drain() {
            var i = count
            while i < capacity { (base + i).initialize(to: .null); i &+= 1 }
            i = 0
            while i < count { (base + i).pointee = .null; i &+= 1 }
            count = 0
        }
    }

    private static func execute<T: Tracer>(
        _ code: UnsafeBufferPointer<Instruction>, from start: Int, to end: Int, _ rs: CompiledRuleset,
        _ tables: EngineTables?, _ ctx: EvaluationContext, _ snaps: inout SnapshotTable, _ tracer: inout T,
        _ stack: inout StackWindow, _ authMembers: inout AuthMemberCache, _ steps: inout Int
    ) -> RuleOutcome {
        // Only a real tracer looks up which expression an instruction completes.
        let tracing = !(T.self == NoTracer.self)
        var pc = start
        while pc < end {
            // One step per instruction (fused instructions count once); see EvaluationBudget.
            steps &-= 1
            if steps < 0 { return exhausted(pc, rs) }
            let ins = code[pc]
            var result: Value
            switch ins.opcode {
            case .pushTrue: result = .bool(true)
            case .pushFalse: result = .bool(false)
            case .pushNull: result = .null
            case .pushNumber: result = .number(rs.numbers[Int(ins.operand)])
            case .pushString: result = .string(rs.strings[Int(ins.operand)])
            case .loadAuth:
                // `auth.name`: each member is looked up once per decision (not while tracing,
                // where the tracer must see `auth` itself).
                if !tracing, pc + 1 < end, code[pc + 1].opcode == .property {
                    let name = code[pc + 1].operand
                    if let known = authMembers.value(name) {
                        result = known
                        pc += 1
                        break
                    }
                    if case .success(let member) = Self.property(Value(ctx.auth), rs.strings[Int(name)]) {
                        authMembers.remember(name, member)
                        result = member
                        pc += 1
                        break
                    }
                }
                // `auth != null` and `auth == null` inside a larger rule: answered here.
                if !tracing, pc + 2 < end, code[pc + 1].opcode == .pushNull,
                   case let compare = code[pc + 2].opcode, compare == .notEqual || compare == .equal {
                    let isNull: Bool
                    if case .null = ctx.auth { isNull = true } else { isNull = false }
                    result = .bool(isNull == (compare == .equal))
                    pc += 2
                    break
                }
                result = Value(ctx.auth)
            case .loadRoot: result = ctx.root >= 0 ? .snapshot(ctx.root) : .null
            case .loadData, .loadNewData:
                let entry = ins.opcode == .loadData ? ctx.data : ctx.newData
                if entry < 0 {
                    result = .null
                } else if !tracing, pc + 1 < end, case let next = code[pc + 1].opcode, Self.isSnapshotQuery(next) {
                    // `data.exists()`, `newData.val()`: the snapshot need not go through the stack.
                    result = Self.query(next, entry, &snaps)
                    pc += 1
                } else {
                    result = .snapshot(entry)
                }
            case .loadNow: result = .number(ctx.now)
            case .loadWildcard:
                let slot = Int(ins.operand)
                guard slot < ctx.wildcardKeys.count else { return fail("The wildcard variable is not bound.", pc, rs) }
                result = .string(ctx.wildcardKeys[slot])
            case .loadQueryField:
                result = Self.queryField(Int(ins.operand), ctx.query)
            case .property:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                let name = rs.strings[Int(ins.operand)]
                switch Self.property(v, name) {
                case .success(let r): result = r
                case .failure(let e): return fail(e.message, pc, rs)
                }
            case .index:
                guard let i = stack.pop(), let v = stack.pop() else { return underflow(pc, rs) }
                switch Self.index(v, i) {
                case .success(let r): result = r
                case .failure(let e): return fail(e.message, pc, rs)
                }
            case .stringLength:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .string(let s) = v else { return fail("Cannot read length of \(v.typeName).", pc, rs) }
                result = .number(Double(s.utf16.count))
            case .val, .getPriority, .exists, .isNumber, .isString, .isBoolean, .hasAnyChildren, .parent:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .snapshot(let si) = v else { return fail("Cannot call \(Self.methodName(ins.opcode))() on \(v.typeName).", pc, rs) }
                if ins.opcode == .parent {
                    // parent() needs only the location, not what is stored there.
                    let parent = snaps[si].parent
                    guard parent >= 0 else { return fail("Cannot call parent() on the root.", pc, rs) }
                    result = .snapshot(parent)
                } else {
                    result = Self.query(ins.opcode, si, &snaps)
                }
            case .childConst, .hasChildConst:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .snapshot(let si) = v else { return fail("Cannot call \(Self.methodName(ins.opcode))() on \(v.typeName).", pc, rs) }
                let keys = rs.pathKeys[Int(ins.operand)]
                if let tables, keys.count == 1, case let rank = tables.keyRanks[pc], rank != KeyOrder.unknownRank {
                    // One key written in the rules: its rank is known, and `hasChild` needs no entry.
                    if ins.opcode == .childConst {
                        let c = snaps.addChild(of: si, key: keys[0], rank: rank)
                        if !tracing, pc + 1 < end, case let next = code[pc + 1].opcode, Self.isSnapshotQuery(next) {
                            // `data.child('uid').val()`: the child need not go through the stack.
                            result = Self.query(next, c, &snaps)
                            pc += 1
                        } else {
                            result = .snapshot(c)
                        }
                    } else {
                        result = .bool(snaps.hasChild(of: si, key: keys[0], rank: rank))
                    }
                } else {
                    let c = snaps.addDescendant(of: si, keys: keys)
                    result = ins.opcode == .childConst ? .snapshot(c) : .bool(snaps.exists(c))
                }
            case .child, .hasChild:
                guard let p = stack.pop(), let v = stack.pop() else { return underflow(pc, rs) }
                guard case .snapshot(let si) = v else { return fail("Cannot call \(Self.methodName(ins.opcode))() on \(v.typeName).", pc, rs) }
                guard case .string(let path) = p else {
                    return fail("\(Self.methodName(ins.opcode))() expects a string argument, got \(p.typeName).", pc, rs)
                }
                steps &-= path.utf8.count >> 6
                let c = snaps.addDescendant(of: si, path: path)
                result = ins.opcode == .child ? .snapshot(c) : .bool(snaps.exists(c))
            case .hasChildren:
                let n = Int(ins.operand)
                guard n >= 0, stack.count >= n + 1 else { return underflow(pc, rs) }
                // The names are read in place, then dropped together with the receiver.
                let base = stack.count - n
                guard case .snapshot(let si) = stack.base[base - 1] else {
                    return fail("Cannot call hasChildren() on \(stack.base[base - 1].typeName).", pc, rs)
                }
                for k in base..<stack.count {
                    guard case .string = stack.base[k] else { return fail("hasChildren() expects strings, got \(stack.base[k].typeName).", pc, rs) }
                }
                // Names that are constants of the rules come with their ranks (see EngineTables).
                let constant = tables?.constantNames[pc] == true
                var all = true
                var k = base
                while all && k < stack.count {
                    if case .string(let path) = stack.base[k] {
                        if let tables, constant, case let rank = tables.keyRanks[pc - n + (k - base)], rank != KeyOrder.unknownRank {
                            all = snaps.hasChild(of: si, key: path, rank: rank)
                        } else {
                            let c = snaps.addDescendant(of: si, path: path)
                            all = snaps.exists(c)
                        }
                    }
                    k += 1
                }
                stack.truncate(to: base - 1)
                result = .bool(all)
            case .contains, .beginsWith, .endsWith:
                guard let a = stack.pop(), let v = stack.pop() else { return underflow(pc, rs) }
                let name = Self.methodName(ins.opcode)
                guard case .string(let s) = v else { return fail("Cannot call \(name)() on \(v.typeName).", pc, rs) }
                guard case .string(let arg) = a else { return fail("\(name)() expects a string argument, got \(a.typeName).", pc, rs) }
                steps &-= s.utf8.count >> 6
                switch ins.opcode {
                case .contains: result = .bool(StringSemantics.contains(s, arg))
                case .beginsWith: result = .bool(StringSemantics.beginsWith(s, arg))
                default: result = .bool(StringSemantics.endsWith(s, arg))
                }
            case .replace:
                guard let b = stack.pop(), let a = stack.pop(), let v = stack.pop() else { return underflow(pc, rs) }
                guard case .string(let s) = v else { return fail("Cannot call replace() on \(v.typeName).", pc, rs) }
                guard case .string(let sa) = a else { return fail("Argument 1 of replace() must be a string, got \(a.typeName).", pc, rs) }
                guard case .string(let sb) = b else { return fail("Argument 2 of replace() must be a string, got \(b.typeName).", pc, rs) }
                steps &-= s.utf8.count >> 6
                let length = StringSemantics.replacedLength(s, sa, with: sb)
                guard length <= DataLimits.maxStringBytes else {
                    return fail("replace() would make a string of \(length == Int.max ? "too many" : String(length)) bytes, over the \(DataLimits.maxStringBytes)-byte limit.", pc, rs)
                }
                result = .string(StringSemantics.replaceAll(s, sa, with: sb))
            case .toLowerCase, .toUpperCase:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .string(let s) = v else { return fail("Cannot call \(Self.methodName(ins.opcode))() on \(v.typeName).", pc, rs) }
                steps &-= s.utf8.count >> 6
                let changed = ins.opcode == .toLowerCase ? StringSemantics.lowercase(s) : StringSemantics.uppercase(s)
                // Case mapping can lengthen a string (ß → SS); the input is within the limit, so
                // the result is at most three times it.
                guard changed.utf8.count <= DataLimits.maxStringBytes else {
                    return fail("\(Self.methodName(ins.opcode))() would make a string of \(changed.utf8.count) bytes, over the \(DataLimits.maxStringBytes)-byte limit.", pc, rs)
                }
                result = .string(changed)
            case .matches:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .string(let s) = v else { return fail("Cannot call matches() on \(v.typeName).", pc, rs) }
                do {
                    guard let matched = try rs.regexes[Int(ins.operand)].matches(s, steps: &steps) else { return exhausted(pc, rs) }
                    result = .bool(matched)
                } catch {
                    return fail("matches() gave up: \(error.message).", pc, rs)
                }
            case .add, .subtract, .multiply, .divide, .remainder, .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual:
                guard let r = stack.pop(), let l = stack.pop() else { return underflow(pc, rs) }
                // Joining or comparing long strings costs in proportion to their length.
                if case .string(let ls) = l { steps &-= ls.utf8.count >> 6 }
                if case .string(let rstr) = r { steps &-= rstr.utf8.count >> 6 }
                switch Operators.binary(ins.opcode, l, r) {
                case .success(let v): result = v
                case .failure(let e): return fail(e.message, pc, rs)
                }
            case .negate:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .number(let n) = v else { return fail("Invalid - expression: operand is \(v.typeName), not a number.", pc, rs) }
                result = .number(-n)
            case .not:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .bool(let b) = v else { return fail("! only operates on booleans, got \(v.typeName).", pc, rs) }
                result = .bool(!b)
            case .jumpIfFalseOrPop, .jumpIfTrueOrPop:
                guard stack.count > 0 else { return underflow(pc, rs) }
                guard case .bool(let b) = stack.base[stack.count - 1] else {
                    return fail("Expected a boolean operand, got \(stack.base[stack.count - 1].typeName).", pc, rs)
                }
                if b == (ins.opcode == .jumpIfTrueOrPop) {
                    pc = Int(ins.operand)
                } else {
                    stack.truncate(to: stack.count - 1)
                    pc += 1
                }
                continue
            case .jumpIfFalse:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .bool(let b) = v else { return fail("The condition of ?: is \(v.typeName), not a boolean.", pc, rs) }
                pc = b ? pc + 1 : Int(ins.operand)
                continue
            case .jump:
                pc = Int(ins.operand)
                continue
            case .return:
                guard let v = stack.pop() else { return underflow(pc, rs) }
                guard case .bool(let b) = v else { return fail("The rule gave \(v.typeName), not a boolean.", pc, rs) }
                return .value(b)
            }
            if tracing {
                let node = rs.instructionNodes[pc]
                if node >= 0 { tracer.record(node: node, value: result, snapshots: snaps) }
            } else if case .bool(var b) = result, pc + 1 < end {
                // Untraced, a boolean that the next instructions negate, test for `&&` or `||`,
                // or return is handled here, without going through the stack: dropped when an
                // operator moves on, kept only when it decides.
                if code[pc + 1].opcode == .not {
                    b = !b
                    result = .bool(b)
                    pc += 1
                }
                if pc + 1 < end {
                    let next = code[pc + 1]
                    switch next.opcode {
                    case .jumpIfFalseOrPop, .jumpIfTrueOrPop:
                        guard stack.count < stack.capacity else {
                            return fail("Internal error: the evaluation stack is full (the rule is denied).", pc, rs)
                        }
                        if b == (next.opcode == .jumpIfTrueOrPop) {
                            _ = stack.push(result)
                            pc = Int(next.operand)
                        } else {
                            pc += 2
                        }
                        continue
                    case .return:
                        return .value(b)
                    default:
                        break
                    }
                }
            }
            guard stack.push(result) else {
                return fail("Internal error: the evaluation stack is full (the rule is denied).", pc, rs)
            }
            pc += 1
        }
        return fail("The rule ended without a result.", max(start, end - 1), rs)
    }

    /// Whether a snapshot method reads only its receiver's location and cannot fail on a
    /// snapshot: `val()`, `exists()`, the type tests, `hasChildren()` without names,
    /// `getPriority()`.
    @inline(__always)
    private static func isSnapshotQuery(_ op: Opcode) -> Bool {
        switch op {
        case .val, .getPriority, .exists, .isNumber, .isString, .isBoolean, .hasAnyChildren: true
        default: false
        }
    }

    /// The value of an ``isSnapshotQuery(_:)`` method called on the snapshot at entry `si`.
    @inline(__always)
    private static func query(_ op: Opcode, _ si: Int32, _ snaps: inout SnapshotTable) -> Value {
        // exists() needs no node: an overlay entry answers without building one.
        if op == .exists { return .bool(snaps.exists(si)) }
        let node = snaps.node(si)
        switch op {
        case .val:
            guard let node else { return .null }
            return node.value.map(Value.init) ?? .object
        case .getPriority: return node?.priority.map(Value.init) ?? .null
        case .isNumber: if case .number = node?.value { return .bool(true) } else { return .bool(false) }
        case .isString: if case .string = node?.value { return .bool(true) } else { return .bool(false) }
        case .isBoolean: if case .bool = node?.value { return .bool(true) } else { return .bool(false) }
        default: return .bool(node?.hasChildren ?? false)
        }
    }

    private static func fail(_ message: String, _ pc: Int, _ rs: CompiledRuleset) -> RuleOutcome {
        let range = pc < rs.instructionRanges.count ? rs.instructionRanges[pc] : SourceRange.at(0)
        return .error(RuntimeError(message, range: range))
    }

    /// The run ends because the decision's budget ran out (``remainingSteps`` is below zero);
    /// the engine writes the reason, naming the rule and the data path.
    private static func exhausted(_ pc: Int, _ rs: CompiledRuleset) -> RuleOutcome {
        fail("evaluation budget exhausted", pc, rs)
    }

    private static func underflow(_ pc: Int, _ rs: CompiledRuleset) -> RuleOutcome {
        fail("Internal error: the evaluation stack is empty (the rule is denied).", pc, rs)
    }

    // MARK: - Helpers

    private static func methodName(_ op: Opcode) -> String {
        switch op {
        case .childConst: "child"
        case .hasChildConst: "hasChild"
        case .hasAnyChildren: "hasChildren"
        default: op.mnemonic
        }
    }

    private static func queryField(_ index: Int, _ q: QueryParameters) -> Value {
        guard index >= 0, index < QueryField.allCases.count else { return .null }
        switch QueryField.allCases[index] {
        case .orderByKey: return .bool(q.orderByKey)
        case .orderByPriority: return .bool(q.orderByPriority)
        case .orderByValue: return .bool(q.orderByValue)
        case .orderByChild: return q.orderByChild.map(Value.string) ?? .null
        case .startAt: return q.startAt.map(Value.init) ?? .null
        case .endAt: return q.endAt.map(Value.init) ?? .null
        case .equalTo: return q.equalTo.map(Value.init) ?? .null
        case .limitToFirst: return q.limitToFirst.map(Value.number) ?? .null
        case .limitToLast: return q.limitToLast.map(Value.number) ?? .null
        }
    }

    /// `value.name` on an auth value: objects look the name up, null gives null (spec §4.2),
    /// and `length` of a string is its length. Anything else is a runtime error.
    static func property(_ v: Value, _ name: String) -> Result<Value, OperatorError> {
        switch v {
        case .auth(.object(let o)):
            return .success(Value(AuthValue.member(of: o, name)))
        case .auth(.array(let a)):
            if name == "length" { return .success(.number(Double(a.count))) }
            if let i = Int(name), i >= 0, i < a.count { return .success(Value(a[i])) }
            return .success(.null)
        case .null:
            if name == "length" { return .failure(OperatorError("Cannot read length of null.")) }
            return .success(.null)
        case .string(let s):
            if name == "length" { return .success(.number(Double(s.utf16.count))) }
            return .failure(OperatorError("Cannot read property '\(name)' of a string."))
        default:
            return .failure(OperatorError("Cannot read property '\(name)' of \(v.typeName)."))
        }
    }

    /// `value[index]` on an auth value.
    static func index(_ v: Value, _ i: Value) -> Result<Value, OperatorError> {
        switch i {
        case .string(let name):
            return property(v, name)
        case .number(let n):
            if case .auth(.array(let a)) = v {
                guard n >= 0, n == n.rounded(), n < Double(a.count) else { return .success(.null) }
                return .success(Value(a[Int(n)]))
            }
            return property(v, JSNumberFormatter.string(n))
        default:
            return .failure(OperatorError("Cannot index with \(i.typeName)."))
        }
    }
}
