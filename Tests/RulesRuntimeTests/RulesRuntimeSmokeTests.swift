import Testing
@testable import RulesRuntime

@Test func RulesRuntimeBuilds() {
    #expect(Bool(true))
}
