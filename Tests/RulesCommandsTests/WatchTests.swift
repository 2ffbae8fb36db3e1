import Foundation
import RulesTestSupport
import Testing

@testable import RulesCommands

@Suite struct WatchTests {
    static func run(_ problems: [(String, String)]) -> WatchRun {
        WatchRun(report: "", problems: problems.map { (key: $0.0, line: $0.1) }, summary: "", status: 0)
    }

    @Test(arguments: [
        // (keys before, keys after, the change lines)
        ([], [], []),
        (["a"], ["a"], []),
        (["a", "b"], ["b"], ["fixed: line a"]),
        (["a"], ["a", "c"], ["new: line c"]),
        (["a", "b"], ["c"], ["fixed: line a", "fixed: line b", "new: line c"]),
    ])
    func reportsWhatWasFixedAndWhatIsNew(before: [String], after: [String], lines: [String]) {
        let previous = Self.run(before.map { ($0, "line \($0)") })
        let current = Self.run(after.map { ($0, "line \($0)") })
        #expect(current.changes(since: previous) == lines)
    }

    @Test func aFindingKeepsItsKeyWhenLinesAboveItMove() {
        let text = #"{"rules": {".read": "auth.uid == $nope"}}"#
        let before = CheckCommand.watchProblems([CheckCommand.check(bytes: Array(text.utf8), path: "a.json")])
        let after = CheckCommand.watchProblems([CheckCommand.check(bytes: Array(("\n\n" + text).utf8), path: "a.json")])
        #expect(before.count == 1)
        #expect(before.map(\.key) == after.map(\.key))
        #expect(before[0].line.hasPrefix("a.json:1:"))
        #expect(after[0].line.hasPrefix("a.json:3:"))
        #expect(after[0].line.hasSuffix("[unknown-variable]"))
    }

    @Test func theWatcherNoticesAWriteAndANewFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/a.rules.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
        var watcher = FileWatcher(paths: [dir.path])
        #expect(watcher.fileCount == 1)
        try Data("{\"rules\": {}}".utf8).write(to: URL(fileURLWithPath: file))
        #expect(watcher.waitForChange(every: 0.01, stop: { false }) == [file])
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir.path + "/b.rules.json"))
        #expect(watcher.waitForChange(every: 0.01, stop: { false }) == [dir.path + "/b.rules.json"])
        #expect(watcher.waitForChange(every: 0.01, stop: { true }) == nil)
    }
}
