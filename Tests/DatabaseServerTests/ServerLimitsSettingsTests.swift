import Foundation
import RulesTestSupport
import Testing

@testable import DatabaseServer

/// `ServerLimits.settings` is the one list of the limits' names: it names every field once, each
/// name sets its field through one parser and one range check, and `docs/limits.md` has its table.
@Suite struct ServerLimitsSettingsTests {
    /// The stored fields of a limits value and their values, as text.
    private static func fields(_ limits: ServerLimits) -> [String: String] {
        Dictionary(uniqueKeysWithValues: Mirror(reflecting: limits).children.map { ($0.label ?? "?", "\($0.value)") })
    }

    @Test func everyFieldHasOneName() throws {
        let defaults = Self.fields(ServerLimits())
        var named: [String: String] = [:]
        for setting in ServerLimits.settings {
            var limits = ServerLimits()
            let value: String
            switch setting.field {
            case .count: value = "7"
            case .seconds(_, let range): value = String(range.upperBound)
            }
            try limits.set("\(setting.name)=\(value)")
            let changed = Self.fields(limits).filter { defaults[$0.key] != $0.value }.map(\.key)
            #expect(changed.count == 1, "\(setting.name) sets \(changed)")
            for field in changed {
                #expect(named[field] == nil, "\(field) is named \(named[field] ?? "") and \(setting.name)")
                named[field] = setting.name
            }
        }
        #expect(Set(named.keys) == Set(defaults.keys), "fields without a name: \(Set(defaults.keys).subtracting(named.keys).sorted())")
        #expect(Set(ServerLimits.settings.map(\.name)).count == ServerLimits.settings.count)
    }

    @Test func theDocumentationHasOneRowPerName() throws {
        let text = try String(contentsOf: TestPaths.repository.appendingPathComponent("docs/limits.md"), encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- limits-table:begin -->\n"))
        let end = try #require(text.range(of: "<!-- limits-table:end -->"))
        #expect(String(text[begin.upperBound..<end.lowerBound]) == ServerLimits.documentationTable)
    }

    @Test func valuesOutOfRangeAreRefusedWithTheSpellingUsed() {
        var limits = ServerLimits()
        #expect(throws: ServerLimits.LimitError.self) { try limits.set("keep-alive=0.01") }
        do {
            try limits.set("keep-alive=0.01")
        } catch {
            #expect(error.message == "--limit keep-alive must be between 0.1 and 3600 seconds; got 0.01")
        }
        do {
            try limits.set("keep-alive", flag: "0.01")
        } catch {
            #expect(error.message == "--keep-alive must be between 0.1 and 3600 seconds; got 0.01")
        }
        #expect(throws: ServerLimits.LimitError.self) { try limits.set("max-connections=0") }
        #expect(throws: ServerLimits.LimitError.self) { try limits.set("idle-timeout=soon") }
        #expect(throws: ServerLimits.LimitError.self) { try limits.set("no-such-limit=1") }
        #expect(limits == ServerLimits())
        try? limits.set("max-body-bytes=1_000")
        #expect(limits.maxBodyBytes == 1000)
    }

    @Test func anIdleTimeShorterThanTheHoldIsRefused() throws {
        var limits = ServerLimits()
        try limits.set("long-poll-idle=5")
        do {
            try limits.check()
            Issue.record("an idle time of 5 s under a hold of 20 s was accepted")
        } catch {
            #expect(error.message.hasPrefix("long-poll-idle (5 s) must be longer than long-poll-hold (20 s)"))
        }
        try limits.set("long-poll-hold=1")
        try limits.check()
    }
}
