import Testing
@testable import RulesCompiler

@Test func RulesCompilerBuilds() {
    #expect(Bool(true))
}
