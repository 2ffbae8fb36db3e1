import RulesSyntax

/// Lowers a checked rule tree to a ``CompiledRuleset``: a flat node table, and for every rule a
/// slice of one instruction array with short-circuit jumps for `&&`, `||` and `?:`.
package struct BytecodeCompiler {
    private let file: SourceFile
    private var nodes: [CompiledNode] = []
    private var rules: [CompiledRule] = []
    private var code: [Instruction] = []
    private var ranges: [SourceRange] = []
    private var traceNodes: [Int32] = []
    private var numbers: [Double] = []
    private var numberIndex: [UInt64: Int32] = [:]
    private var strings: [String] = []
    // By bytes: Swift's String equality folds canonically equivalent text, the rules language does not.
    private var stringIndex: [ExactText: Int32] = [:]
    private var regexes: [CompiledRegex] = []
    private var depth = 0
    private var maxDepth = 0

    /// Creates a compiler for the tree of a file.
    package init(file: SourceFile) { self.file = file }

    /// Compiles a checked tree (which must have no rule with errors).
    package static func compile(_ tree: RuleNode, file: SourceFile, diagnostics: [Diagnostic] = []) -> CompiledRuleset {
        var c = BytecodeCompiler(file: file)
        _ = c.node(tree)
        return CompiledRuleset(
            file: file, tree: tree, nodes: c.nodes, rules: c.rules, instructions: c.code,
            instructionRanges: c.ranges, instructionNodes: c.traceNodes, numbers: c.numbers, strings: c.strings,
            regexes: c.regexes, maxStackDepth: max(c.maxDepth, 1), diagnostics: diagnostics)
    }

    // MARK: - Tree

    /// Adds a node (children first, so indexes are known) and returns its index.
    private mutating func node(_ n: RuleNode) -> Int32 {
        // Reserve the slot so the root is index 0.
        let index = Int32(nodes.count)
        nodes.append(CompiledNode(path: "", literals: [:], wildcard: -1, wildcardName: "", read: -1, write: -1, validate: -1, validatesBelow: false, indexOn: []))
        let path = n.pathDescription
        let read = n.read.map { rule($0, path: path) } ?? -1
        let write = n.write.map { rule($0, path: path) } ?? -1
        let validate = n.validate.map { rule($0, path: path) } ?? -1
        var literals: [String: Int32] = [:]
        var below = validate >= 0
        for (key, child) in n.literalChildren {
            let ci = node(child)
            literals[key] = ci
            below = below || nodes[Int(ci)].validatesBelow
        }
        var wildcard: Int32 = -1
        if let w = n.wildcard {
            wildcard = node(w.node)
            below = below || nodes[Int(wildcard)].validatesBelow
        }
        nodes[Int(index)] = CompiledNode(
            path: path, literals: literals, wildcard: wildcard, wildcardName: n.wildcard?.name ?? "",
            read: read, write: write, validate: validate, validatesBelow: below, indexOn: n.indexOn)
        return index
    }

    private mutating func rule(_ r: Rule, path: String) -> Int32 {
        let rulePath = (path == "/" ? "/" : path + "/") + r.kind.key
        let index = Int32(rules.count)
        switch r.body {
        case .constant(let b):
            rules.append(CompiledRule(kind: r.kind, rulePath: rulePath, constant: b, codeStart: 0, codeEnd: 0, range: r.valueRange, expression: nil))
        case .expression(let checked):
            if case .bool(let b)? = ConstantFolder.fold(checked.root) {
                rules.append(CompiledRule(kind: r.kind, rulePath: rulePath, constant: b, codeStart: 0, codeEnd: 0, range: r.valueRange, expression: checked))
                return index
            }
            let start = code.count
            depth = 0
            emit(checked.root, checked)
            append(.return, 0, range: checked.fileRange(of: checked.root), node: -1, effect: -1)
            rules.append(CompiledRule(kind: r.kind, rulePath: rulePath, constant: nil, codeStart: start, codeEnd: code.count, range: r.valueRange, expression: checked))
        case .invalid:
            // Fail closed: a rule with errors never grants and always fails validation.
            rules.append(CompiledRule(kind: r.kind, rulePath: rulePath, constant: false, codeStart: 0, codeEnd: 0, range: r.valueRange, expression: nil))
        }
        return index
    }

    // MARK: - Expressions

    private mutating func emit(_ e: Expression, _ c: CheckedExpression) {
        let range = c.fileRange(of: e)
        let id = Int32(e.id)
        if let constant = ConstantFolder.fold(e) {
            switch constant {
            case .null: append(.pushNull, 0, range: range, node: id, effect: 1)
            case .bool(let b): append(b ? .pushTrue : .pushFalse, 0, range: range, node: id, effect: 1)
            case .number(let n): append(.pushNumber, number(n), range: range, node: id, effect: 1)
            case .string(let s): append(.pushString, string(s), range: range, node: id, effect: 1)
            }
            return
        }
        switch e.kind {
        case .number(let n):
            append(.pushNumber, number(n), range: range, node: id, effect: 1)
        case .string(let s):
            append(.pushString, string(s), range: range, node: id, effect: 1)
        case .boolean(let b):
            append(b ? .pushTrue : .pushFalse, 0, range: range, node: id, effect: 1)
        case .null:
            append(.pushNull, 0, range: range, node: id, effect: 1)
        case .regex, .array:
            // Only reachable as call arguments, which the call lowers itself.
            append(.pushNull, 0, range: range, node: id, effect: 1)
        case .identifier:
            switch c.resolution(of: e) {
            case .auth: append(.loadAuth, 0, range: range, node: id, effect: 1)
            case .root: append(.loadRoot, 0, range: range, node: id, effect: 1)
            case .data: append(.loadData, 0, range: range, node: id, effect: 1)
            case .newData: append(.loadNewData, 0, range: range, node: id, effect: 1)
            case .now: append(.loadNow, 0, range: range, node: id, effect: 1)
            case .wildcard(_, let slot): append(.loadWildcard, Int32(slot), range: range, node: id, effect: 1)
            default:
                // `query` alone is never a value (only its fields are); push null to keep the stack balanced.
                append(.pushNull, 0, range: range, node: id, effect: 1)
            }
        case .member(let object, _, _), .index(let object, _):
            switch c.resolution(of: e) {
            case .queryField(let f):
                append(.loadQueryField, Int32(QueryField.allCases.firstIndex(of: f)!), range: range, node: id, effect: 1)
            case .stringLength:
                emit(object, c)
                append(.stringLength, 0, range: range, node: id, effect: 0)
            case .dynamicProperty(let name):
                emit(object, c)
                append(.property, string(name), range: range, node: id, effect: 0)
            case .dynamicIndex:
                emit(object, c)
                if case .index(_, let idx) = e.kind { emit(idx, c) }
                append(.index, 0, range: range, node: id, effect: -1)
            default:
                // A method reference: its call emits the receiver.
                emit(object, c)
            }
        case .call(let callee, let args):
            guard case .call(let m) = c.resolution(of: e) else {
                append(.pushNull, 0, range: range, node: id, effect: 1)
                return
            }
            switch callee.kind {
            case .member(let receiver, _, _), .index(let receiver, _): emit(receiver, c)
            default: emit(callee, c)
            }
            call(m, args, c, range: range, id: id)
        case .unary(let op, let operand):
            emit(operand, c)
            append(op == .not ? .not : .negate, 0, range: range, node: id, effect: 0)
        case .binary(let op, let l, let r, _):
            emit(l, c)
            emit(r, c)
            append(Self.opcode(op), 0, range: range, node: id, effect: -1)
        case .logical(let op, let operands):
            var patches: [Int] = []
            for (i, o) in operands.enumerated() {
                emit(o, c)
                if i < operands.count - 1 {
                    patches.append(code.count)
                    append(op == .and ? .jumpIfFalseOrPop : .jumpIfTrueOrPop, 0, range: range, node: -1, effect: -1)
                }
            }
            for p in patches { code[p].operand = Int32(code.count) }
        case .conditional(let cond, let a, let b):
            emit(cond, c)
            let toElse = code.count
            append(.jumpIfFalse, 0, range: range, node: -1, effect: -1)
            emit(a, c)
            let toEnd = code.count
            append(.jump, 0, range: range, node: -1, effect: -1)  // the else branch pushes it again
            code[toElse].operand = Int32(code.count)
            emit(b, c)
            code[toEnd].operand = Int32(code.count)
        }
    }

    private mutating func call(_ m: Method, _ args: [Expression], _ c: CheckedExpression, range: SourceRange, id: Int32) {
        switch m {
        case .val: append(.val, 0, range: range, node: id, effect: 0)
        case .getPriority: append(.getPriority, 0, range: range, node: id, effect: 0)
        case .exists: append(.exists, 0, range: range, node: id, effect: 0)
        case .isNumber: append(.isNumber, 0, range: range, node: id, effect: 0)
        case .isString: append(.isString, 0, range: range, node: id, effect: 0)
        case .isBoolean: append(.isBoolean, 0, range: range, node: id, effect: 0)
        case .parent: append(.parent, 0, range: range, node: id, effect: 0)
        case .child, .hasChild:
            if let a = args.first, case .string(let s) = a.kind {
                append(m == .child ? .childConst : .hasChildConst, string(s), range: range, node: id, effect: 0)
            } else if let a = args.first {
                emit(a, c)
                append(m == .child ? .child : .hasChild, 0, range: range, node: id, effect: -1)
            }
        case .hasChildren:
            if let a = args.first, case .array(let elements) = a.kind {
                for el in elements { emit(el, c) }
                append(.hasChildren, Int32(elements.count), range: range, node: id, effect: -elements.count)
            } else {
                append(.hasAnyChildren, 0, range: range, node: id, effect: 0)
            }
        case .contains, .beginsWith, .endsWith:
            if let a = args.first { emit(a, c) }
            let op: Opcode = m == .contains ? .contains : m == .beginsWith ? .beginsWith : .endsWith
            append(op, 0, range: range, node: id, effect: -1)
        case .replace:
            for a in args { emit(a, c) }
            append(.replace, 0, range: range, node: id, effect: -2)
        case .toLowerCase: append(.toLowerCase, 0, range: range, node: id, effect: 0)
        case .toUpperCase: append(.toUpperCase, 0, range: range, node: id, effect: 0)
        case .matches:
            guard let a = args.first, let regex = c.regexes[a.id] else {
                append(.pushNull, 0, range: range, node: id, effect: 1)
                return
            }
            regexes.append(regex)
            append(.matches, Int32(regexes.count - 1), range: range, node: id, effect: 0)
        }
    }

    private static func opcode(_ op: BinaryOperator) -> Opcode {
        switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .remainder: .remainder
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        case .equal, .strictEqual: .equal
        case .notEqual, .strictNotEqual: .notEqual
        }
    }

    // MARK: - Pools

    private mutating func append(_ op: Opcode, _ operand: Int32, range: SourceRange, node: Int32, effect: Int) {
        code.append(Instruction(op, operand))
        ranges.append(range)
        traceNodes.append(node)
        depth += effect
        maxDepth = max(maxDepth, depth)
    }

    private mutating func number(_ n: Double) -> Int32 {
        if let i = numberIndex[n.bitPattern] { return i }
        let i = Int32(numbers.count)
        numbers.append(n)
        numberIndex[n.bitPattern] = i
        return i
    }

    private mutating func string(_ s: String) -> Int32 {
        let key = ExactText(s)
        if let i = stringIndex[key] { return i }
        let i = Int32(strings.count)
        strings.append(s)
        stringIndex[key] = i
        return i
    }
}
