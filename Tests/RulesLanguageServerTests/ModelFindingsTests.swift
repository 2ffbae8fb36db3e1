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
        let first = s.server.pendingDiagnostics()
        #expect(Self.codes(first) == [["static"]])
        let wanted = s.server.nextModelJob()
        let job = try #require(wanted)
        #expect(job.version == 1)
        let another = s.server.nextModelJob()
        #expect(another == nil)
        let published = s.server.accept(job, findings: job.run())
        #expect(Self.codes(published) == [["modelled"]])
        #expect(Session.parse(published[0]).at("params.version")?.int == 1)
        // Done once: nothing more to compute until the document changes.
        let again = s.server.pendingDiagnostics()
        #expect(again.isEmpty)
        let none = s.server.nextModelJob()
        #expect(none == nil)
    }

    @Test func findingsOfAnOlderVersionAreDropped() throws {
        let s = Session(checker: Self.checker)
        s.open("{\"rules\": {}}")
        _ = s.server.pendingDiagnostics()
        let wanted = s.server.nextModelJob()
        let job = try #require(wanted)
        s.change((0, 0, 0, 0), " ", version: 2)
        let stale = s.server.accept(job, findings: job.run())
        #expect(stale.isEmpty)
        // The new version: its first findings, then its model.
        let first = s.server.pendingDiagnostics()
        #expect(Self.codes(first) == [["static"]])
        let wantedNext = s.server.nextModelJob()
        let next = try #require(wantedNext)
        #expect(next.version == 2)
        let published = s.server.accept(next, findings: next.run())
        #expect(Self.codes(published) == [["modelled"]])
    }

    @Test func withoutAModelNothingFollows() {
        let s = Session()
        s.open("{\"rules\": {}}")
        _ = s.server.pendingDiagnostics()
        let job = s.server.nextModelJob()
        #expect(job == nil)
    }
}
