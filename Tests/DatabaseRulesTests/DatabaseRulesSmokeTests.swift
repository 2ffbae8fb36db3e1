import Testing
@testable import DatabaseRules

@Test func DatabaseRulesBuilds() {
    #expect(Bool(true))
}
