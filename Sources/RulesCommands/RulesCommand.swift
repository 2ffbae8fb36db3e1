import ArgumentParser

/// The `rules` command: compile, check and test Firebase Realtime Database security rules.
package struct RulesCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Compile, check, test and serve Firebase Realtime Database security rules.",
        version: RulesTool.version,
        subcommands: [CheckCommand.self, AccessCommand.self, DiffCommand.self, CompileCommand.self, TestCommand.self, BenchCommand.self, ServeCommand.self, LSPCommand.self]
    )

    package init() {}
}
