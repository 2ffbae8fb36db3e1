import RulesSyntax

/// Checks that a compiled ruleset is internally consistent before anything runs it: every index
/// an instruction, node or rule holds points into its table, every jump goes forward and stays
/// inside its rule, and the side tables line up with the code.
///
/// The compiler only produces consistent rulesets, but ``CompiledRuleset`` can also be built by
/// hand, and the engine and the VM index these tables without further checks. A ruleset that
/// fails here is never run: the engine denies every operation with the reason (fail closed).
/// The check is linear in the size of the ruleset and runs once, when the ruleset is created.
enum BytecodeVerifier {
    /// The first inconsistency found, as a sentence, or nil when the ruleset is consistent.
    static func defect(
        nodes: [CompiledNode], rules: [CompiledRule], instructions: [Instruction], instructionRanges: [SourceRange],
        instructionNodes: [Int32], numbers: Int, strings: Int, regexes: Int, maxStackDepth: Int
    ) -> String? {
        if nodes.isEmpty { return "there is no root node" }
        if instructionRanges.count != instructions.count || instructionNodes.count != instructions.count {
            return "the side tables do not match the \(instructions.count) instructions"
        }
        if maxStackDepth < 0 { return "the stack depth \(maxStackDepth) is negative" }
        func isRule(_ i: Int32) -> Bool { i == -1 || (i >= 0 && Int(i) < rules.count) }
        func isNode(_ i: Int32) -> Bool { i >= 0 && Int(i) < nodes.count }
        for (n, node) in nodes.enumerated() {
            guard isRule(node.read), isRule(node.write), isRule(node.validate) else {
                return "node \(n) (\(node.path)) names a rule that does not exist"
            }
            guard node.wildcard == -1 || isNode(node.wildcard), node.literals.values.allSatisfy(isNode) else {
                return "node \(n) (\(node.path)) names a child node that does not exist"
            }
        }
        for (r, rule) in rules.enumerated() {
            guard rule.codeStart >= 0, rule.codeStart <= rule.codeEnd, rule.codeEnd <= instructions.count else {
                return "rule \(r) (\(rule.rulePath)) has code \(rule.codeStart)..<\(rule.codeEnd) outside the \(instructions.count) instructions"
            }
            if rule.constant != nil { continue }
            for pc in rule.codeStart..<rule.codeEnd {
                let ins = instructions[pc]
                if let problem = operandProblem(ins, at: pc, end: rule.codeEnd, numbers: numbers, strings: strings, regexes: regexes) {
                    return "instruction \(pc) (\(ins.opcode.mnemonic) \(ins.operand)) of rule \(r) (\(rule.rulePath)): \(problem)"
                }
            }
        }
        return nil
    }

    /// What is wrong with one instruction's operand, if anything.
    private static func operandProblem(
        _ ins: Instruction, at pc: Int, end: Int, numbers: Int, strings: Int, regexes: Int
    ) -> String? {
        let operand = Int(ins.operand)
        func within(_ count: Int, _ table: String) -> String? {
            operand >= 0 && operand < count ? nil : "no entry \(operand) among \(count) \(table)"
        }
        if ins.opcode.isFused || ins.then != .push { return "fused instructions belong to the fast code only" }
        switch ins.opcode {
        case .pushNumber: return within(numbers, "numbers")
        case .pushString, .property: return within(strings, "strings")
        case .childConst, .hasChildConst: return within(strings, "paths")
        case .matches: return within(regexes, "regular expressions")
        case .loadWildcard, .hasChildren: return operand >= 0 ? nil : "a negative count"
        case .jumpIfFalseOrPop, .jumpIfTrueOrPop, .jumpIfFalse, .jump:
            // Forward only, so that every rule terminates; the end of the rule is a valid target.
            return operand > pc && operand <= end ? nil : "a jump to \(operand) outside \(pc + 1)...\(end)"
        default: return nil
        }
    }
}
