import ArgumentParser
import RulesCommands

/// The `rules` executable: the command-line tool of the RulesCommands library.
@main
extension RulesCommand {}
