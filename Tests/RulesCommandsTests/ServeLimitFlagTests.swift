import ArgumentParser
import DatabaseServer
import Testing

@testable import RulesCommands

/// The limits with flags of their own are other spellings of `--limit NAME=VALUE`: the same
/// parser, the same range, the same checks of limits together.
@Suite struct ServeLimitFlagTests {
    @Test func eachFlagSetsWhatItsLimitNameSets() throws {
        let flagged = ServerLimits.settings.filter(\.flag)
        #expect(flagged.map(\.name).sorted() == ["header-timeout", "idle-timeout", "keep-alive", "long-poll-hold", "long-poll-idle", "max-connections"])
        for setting in flagged {
            let value: String
            switch setting.field {
            case .count: value = "7"
            case .seconds(_, let range): value = String(range.upperBound)
            }
            // long-poll-hold at its upper bound needs an idle time above it.
            let extra = setting.name == "long-poll-hold" ? ["--limit", "long-poll-idle=60"] : []
            let byFlag = try ServeCommand.parse(["--\(setting.name)", value] + extra).limits()
            let byName = try ServeCommand.parse(["--limit", "\(setting.name)=\(value)"] + extra).limits()
            #expect(byFlag == byName, "\(setting.name)")
            #expect(byFlag != ServerLimits(), "\(setting.name)")
        }
        #expect(try ServeCommand.parse([]).limits() == ServerLimits())
    }

    @Test func outOfRangeValuesAndAnIdleTimeShorterThanTheHoldAreRefused() throws {
        for arguments in [
            ["--limit", "keep-alive=0.01"], ["--keep-alive", "0.01"], ["--limit", "long-poll-idle=5"],
            ["--long-poll-idle", "10", "--long-poll-hold", "12"], ["--max-connections", "0"],
        ] {
            let command = try ServeCommand.parse(arguments)
            #expect(throws: ExitCode(2), "\(arguments)") { try command.limits() }
        }
    }
}
