import RulesCommands

await RulesCommand.main()
