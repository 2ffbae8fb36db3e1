import RulesSyntax

/// Prints a compiled ruleset: the rule tree, and for each rule its location and bytecode (the
/// plain code, or the fast code that runs when nothing is traced).
package enum Disassembler {
    /// The listing as text.
    package static func listing(_ ruleset: CompiledRuleset, fast: Bool = false) -> String {
        var out = ""
        for node in ruleset.nodes {
            var header = node.path
            if !node.indexOn.isEmpty { header += "  .indexOn " + node.indexOn.joined(separator: ",") }
            out += header + "\n"
            for kind in RuleKind.allCases {
                let ri = node.rule(kind)
                guard ri >= 0 else { continue }
                let rule = ruleset.rules[Int(ri)]
                let loc = ruleset.file.location(of: rule.range)
                if let constant = rule.constant {
                    out += "  \(kind.key) \(ruleset.file.path):\(loc): constant \(constant)\n"
                    continue
                }
                out += "  \(kind.key) \(ruleset.file.path):\(loc): \(rule.codeEnd - rule.codeStart) instructions\n"
                for pc in rule.codeStart..<rule.codeEnd {
                    out += "    " + line(ruleset, pc, fast: fast) + "\n"
                }
            }
        }
        return out
    }

    /// One instruction, with its operand decoded and its source location.
    package static func line(_ ruleset: CompiledRuleset, _ pc: Int, fast: Bool = false) -> String {
        let code = fast ? ruleset.fastInstructions : ruleset.instructions
        let ins = code[pc]
        var text = pad(String(pc), 5) + " " + pad(ins.opcode.mnemonic, 18)
        switch ins.opcode {
        case .pushNumber:
            text += format(ruleset.numbers[Int(ins.operand)])
        case .pushString, .property, .childConst, .hasChildConst, .authMember:
            text += quoted(ruleset.strings[Int(ins.operand)])
        case .childConstQuery:
            text += quoted(ruleset.strings[Int(ins.operand)]) + " " + ruleset.instructions[pc + 1].opcode.mnemonic
        case .dataQuery, .newDataQuery:
            text += ruleset.instructions[pc + 1].opcode.mnemonic
        case .loadWildcard:
            text += "slot \(ins.operand)"
        case .loadQueryField:
            text += QueryField.allCases[Int(ins.operand)].rawValue
        case .hasChildren:
            text += "\(ins.operand) names"
        case .matches:
            let r = ruleset.regexes[Int(ins.operand)]
            text += "/\(r.pattern)/" + (r.caseInsensitive ? "i" : "")
        case _ where ins.opcode.isJump:
            text += "-> \(ins.operand)"
        default:
            break
        }
        if ins.then != .push { text += (text.hasSuffix(" ") ? "" : " ") + "then " + String(describing: ins.then) }
        let loc = ruleset.file.location(of: ruleset.instructionRanges[pc])
        return pad(text, 48) + " ; \(loc.line):\(loc.column)"
    }

    private static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }

    private static func quoted(_ s: String) -> String {
        var out = "'"
        for ch in s.unicodeScalars {
            switch ch {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "'"
    }

    private static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}
