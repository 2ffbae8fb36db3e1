import Testing
@testable import RulesCommands

@Test func RulesCommandsBuilds() {
    #expect(Bool(true))
}
