import RulesCompiler
import RulesSyntax
import Testing

/// The fast code the compiler makes for untraced runs: which sequences are fused, what each
/// instruction carries its boolean into, and that nothing else changes.
@Suite struct BytecodeFuserTests {
    static func ruleset(_ expression: String) throws -> CompiledRuleset {
        try #require(RulesCompiler.compile(source: #"{"rules": {"$k": {".write": "\#(expression)"}}}"#).ruleset)
    }

    /// The fast code of one rule as `mnemonic[>continuation]` per instruction.
    static func fast(_ expression: String) throws -> [String] {
        let rs = try ruleset(expression)
        let rule = try #require(rs.rules.first { $0.constant == nil })
        return (rule.codeStart..<rule.codeEnd).map { pc in
            let ins = rs.fastInstructions[pc]
            return ins.opcode.mnemonic + (ins.then == .push ? "" : ">" + String(describing: ins.then))
        }
    }

    @Test(arguments: [
        // auth.name: the member look-up absorbs the property; the comparison returns.
        ("auth.uid == 'a'", ["authMember", "property", "pushString", "equal>return", "return"]),
        // auth != null / auth == null in a larger rule.
        ("auth != null && $k == 'a'",
         ["authIsNotNull>and", "pushNull", "notEqual>and", "jumpIfFalseOrPop", "loadWildcard", "pushString", "equal>return", "return"]),
        ("auth == null || $k == 'a'",
         ["authIsNull>or", "pushNull", "equal>or", "jumpIfTrueOrPop", "loadWildcard", "pushString", "equal>return", "return"]),
        // data.exists() and newData.val(); `!` carried along with the test after it.
        ("!data.exists() || newData.val() == 1",
         ["dataQuery>notOr", "exists>notOr", "not>or", "jumpIfTrueOrPop", "newDataQuery", "val", "pushNumber", "equal>return", "return"]),
        // data.child('owner').val(): the child and its query.
        ("data.child('owner').val() == auth.uid",
         ["loadData", "childConstQuery", "val", "authMember", "property", "equal>return", "return"]),
        // A child with a computed path, and a query that is not fused (parent()).
        ("data.parent().child($k).exists()",
         ["loadData", "parent", "loadWildcard", "child", "exists>return", "return"]),
        // ?: keeps its jumps; its branches' booleans are pushed (the jump after them is `jump`).
        ("newData.isString() ? true : false",
         ["newDataQuery", "isString", "jumpIfFalse", "pushTrue", "jump", "pushFalse>return", "return"]),
    ] as [(String, [String])])
    func sequencesAreFused(expression: String, expected: [String]) throws {
        #expect(try Self.fast(expression) == expected)
    }

    /// The fast code has the plain code's length; every instruction that is not fused keeps its
    /// opcode and operand (only its continuation may differ), so jumps, source ranges and the
    /// engine's per-instruction tables apply to both.
    @Test func fastCodeKeepsTheIndexes() throws {
        let rs = try Self.ruleset("(auth != null && data.child('a').exists()) || !newData.hasChildren(['x', 'y']) || auth.token.admin == true")
        #expect(rs.fastInstructions.count == rs.instructions.count)
        for (plain, fast) in zip(rs.instructions, rs.fastInstructions) where !fast.opcode.isFused {
            #expect(plain.opcode == fast.opcode && plain.operand == fast.operand)
        }
        #expect(rs.instructions.allSatisfy { !$0.opcode.isFused && $0.then == .push })
    }

    /// No sequence crosses the end of a rule: a rule's last instructions are fused only with
    /// their own.
    @Test func sequencesStayInsideTheirRule() {
        let code = [
            Instruction(.loadAuth), Instruction(.return),      // rule 0 is only the `loadAuth`
            Instruction(.property, 0), Instruction(.return),   // rule 1
        ]
        let rules = [
            CompiledRule(kind: .read, rulePath: "/a/.read", constant: nil, codeStart: 0, codeEnd: 1, range: .at(0), expression: nil),
            CompiledRule(kind: .read, rulePath: "/b/.read", constant: nil, codeStart: 2, codeEnd: 4, range: .at(0), expression: nil),
        ]
        let fast = BytecodeFuser.fuse(code, rules: rules)
        // Rule 0's `loadAuth` is neither fused with the `property` nor carried into the
        // `return` beyond its end; rule 1's `property` returns as usual.
        #expect(fast[0] == Instruction(.loadAuth))
        #expect(fast[2] == Instruction(.property, 0, then: .return))
    }

    /// A fused instruction or a continuation in the plain code is a defect (they are made only
    /// from it).
    @Test func plainCodeWithFusedInstructionsIsADefect() throws {
        let rs = try Self.ruleset("auth.uid == 'a'")
        for damaged in [Instruction(.authMember, 0), Instruction(.loadAuth, then: .return)] {
            var code = rs.instructions
            code[rs.rules[0].codeStart] = damaged
            let bad = CompiledRuleset(
                file: rs.file, tree: rs.tree, nodes: rs.nodes, rules: rs.rules, instructions: code,
                instructionRanges: rs.instructionRanges, instructionNodes: rs.instructionNodes, numbers: rs.numbers,
                strings: rs.strings, regexes: rs.regexes, maxStackDepth: rs.maxStackDepth, diagnostics: rs.diagnostics)
            #expect(bad.defect?.hasSuffix("fused instructions belong to the fast code only") == true)
        }
    }
}
