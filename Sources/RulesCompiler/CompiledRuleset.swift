import RulesSyntax

/// A rules file compiled for evaluation: immutable, `Sendable`, built once and shared by any number
/// of threads.
///
/// Code for all rules lives in one flat instruction array; pools hold the numbers, strings and
/// regular expressions that instructions name by index. Parallel arrays map each instruction to the
/// source range it came from (for runtime errors) and to the expression node whose value it
/// completes (for explanations).
package final class CompiledRuleset: Sendable {
    /// The rules file.
    package let file: SourceFile
    /// The checked rule tree.
    package let tree: RuleNode
    /// The compiled tree; index 0 is the root.
    package let nodes: [CompiledNode]
    /// Every rule.
    package let rules: [CompiledRule]
    /// The code of every rule, one instruction per step of the expression: what a traced run
    /// executes, and what the disassembler shows.
    package let instructions: [Instruction]
    /// The same code with common sequences fused and boolean results carried into the `!`,
    /// `&&`, `||` or `return` after them (see ``BytecodeFuser``): what an untraced run executes.
    /// Same length and indexes as ``instructions``.
    package let fastInstructions: [Instruction]
    /// The file range of the expression that produced each instruction.
    package let instructionRanges: [SourceRange]
    /// The expression node id whose value is on top of the stack after each instruction, or -1.
    package let instructionNodes: [Int32]
    /// Number constants.
    package let numbers: [Double]
    /// String constants and names.
    package let strings: [String]
    /// Each string split at `/` into keys (empty segments dropped), so `child('a/b')` with a
    /// constant path does no splitting when it is evaluated.
    package let pathKeys: [[String]]
    /// Compiled regular expressions.
    package let regexes: [CompiledRegex]
    /// The deepest stack any rule needs.
    package let maxStackDepth: Int
    /// Warnings found while compiling.
    package let diagnostics: [Diagnostic]
    /// Why the ruleset must not run, when its tables are inconsistent (an index out of range, a
    /// jump outside its rule); nil for every ruleset the compiler produces. The engine denies
    /// every operation on a ruleset with a defect instead of trusting its tables.
    package let defect: String?

    /// Creates a ruleset (see ``BytecodeCompiler``).
    package init(
        file: SourceFile, tree: RuleNode, nodes: [CompiledNode], rules: [CompiledRule], instructions: [Instruction],
        instructionRanges: [SourceRange], instructionNodes: [Int32], numbers: [Double], strings: [String],
        regexes: [CompiledRegex], maxStackDepth: Int, diagnostics: [Diagnostic]
    ) {
        self.file = file
        self.tree = tree
        self.nodes = nodes
        self.rules = rules
        self.instructions = instructions
        self.fastInstructions = BytecodeFuser.fuse(instructions, rules: rules)
        self.instructionRanges = instructionRanges
        self.instructionNodes = instructionNodes
        self.numbers = numbers
        self.strings = strings
        self.pathKeys = strings.map { $0.split(separator: "/").map(String.init) }
        self.regexes = regexes
        self.maxStackDepth = maxStackDepth
        self.diagnostics = diagnostics
        self.defect = BytecodeVerifier.defect(
            nodes: nodes, rules: rules, instructions: instructions, instructionRanges: instructionRanges,
            instructionNodes: instructionNodes, numbers: numbers.count, strings: strings.count, regexes: regexes.count,
            maxStackDepth: maxStackDepth)
    }
}
