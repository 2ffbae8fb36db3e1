import ArgumentParser

/// The `rules` command: compile, check and test Firebase Realtime Database security rules.
public struct RulesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Compile, check and test Firebase Realtime Database security rules.",
        version: "0.1.0",
        subcommands: [CheckCommand.self, CompileCommand.self, TestCommand.self, BenchCommand.self]
    )

    public init() {}
}
