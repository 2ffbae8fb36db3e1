import RulesLanguageServer
import RulesSyntax
import Testing

/// The access model's findings follow the first ones: the compiler's diagnostics and the static
/// lints are published at once, the model's findings when their job is done, and only for the
/// version they were computed on.
@Suite struct ModelFindingsTests {
    static let checker = DocumentChecker(
        { _ in [CheckedDiagnostic(.warning("static", "At once.", at: SourceRange(0, 1)))] },
        model: { _ in [CheckedDiagnostic(.warning("modelled", "Later.", at: SourceRange(0, 1)))] })

    static func codes(_ published: [JSONText]) -> [[String]] {
        published.map { Session.parse($0).at("params.diagnostics")?.arrayValue?.compactMap { $0["code"]?.text } ?? [] }
    }

    @Test func theModelsFindingsFollowTheFirstOnes() throws {
        let s = Session(checker: Self.checker)
        s.open("{\"rules\": {}}")
        #expect(Self.codes(s.server.pendingDiagnostics()) == [["static"]])
        let job = try #require(s.server.nextModelJob())
        #expect(job.version == 1)
        #expect(s.server.nextModelJob() == nil)
        let published = s.server.accept(job, findings: job.run())
        #expect(Self.codes(published) == [["modelled"]])
        #expect(Session.parse(published[0]).at("params.version")?.int == 1)
        // Done once: nothing more to compute until the document changes.
        #expect(s.server.pendingDiagnostics().isEmpty)
        #expect(s.server.nextModelJob() == nil)
    }

    @Test func findingsOfAnOlderVersionAreDropped() throws {
        let s = Session(checker: Self.checker)
        s.open("{\"rules\": {}}")
        _ = s.server.pendingDiagnostics()
        let job = try #require(s.server.nextModelJob())
        s.change((0, 0, 0, 0), " ", version: 2)
        #expect(s.server.accept(job, findings: job.run()).isEmpty)
        // The new version: its first findings, then its model.
        #expect(Self.codes(s.server.pendingDiagnostics()) == [["static"]])
        let next = try #require(s.server.nextModelJob())
        #expect(next.version == 2)
        #expect(Self.codes(s.server.accept(next, findings: next.run())) == [["modelled"]])
    }

    @Test func withoutAModelNothingFollows() {
        let s = Session()
        s.open("{\"rules\": {}}")
        _ = s.server.pendingDiagnostics()
        #expect(s.server.nextModelJob() == nil)
    }
}
