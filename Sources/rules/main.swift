import RulesCommands

RulesCommand.main()
