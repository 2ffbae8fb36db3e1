import Testing
@testable import RulesSyntax

@Test func RulesSyntaxBuilds() {
    #expect(Bool(true))
}
