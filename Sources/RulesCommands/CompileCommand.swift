import ArgumentParser
import Foundation
import RulesCompiler
import RulesSyntax

/// `rules compile FILE --disassemble [--fast]`: shows the bytecode of every rule.
package struct CompileCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a rules file and print its rule tree and bytecode."
    )

    @Argument(help: "The rules file.")
    package var path: String

    @Flag(help: "Print the rule tree with each rule's bytecode and source location.")
    package var disassemble = false

    @Flag(help: "With --disassemble: the fast code instead, which runs when nothing is traced (fused instructions, and what each carries a boolean into).")
    package var fast = false

    package init() {}

    package func run() throws {
        let checked = CheckCommand.check(path)
        guard let file = checked.file else {
            FileHandle.standardError.write(Data("\(path): error: \(checked.readError ?? "cannot read")\n".utf8))
            throw ExitCode(2)
        }
        let result = RulesCompiler.compile(file)
        guard let ruleset = result.ruleset else {
            let text = DiagnosticReporter().text([checked])
            FileHandle.standardError.write(Data(text.utf8))
            throw ExitCode(1)
        }
        if disassemble {
            print(Disassembler.listing(ruleset, fast: fast), terminator: "")
        } else {
            print("\(path): \(ruleset.rules.count) rules, \(ruleset.instructions.count) instructions, \(ruleset.nodes.count) locations")
        }
    }
}
