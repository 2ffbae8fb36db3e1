import ArgumentParser
import Foundation
import RulesTestSupport
import Testing

@testable import RulesCommands

/// The commands return their exit status by throwing ArgumentParser's `ExitCode`, never by ending
/// the process: a test runs them in its own process and reads the status.
@Suite struct InProcessExitTests {
    @Test func checkStopsWithTwoWhenUpdateBaselineHasNoBaseline() throws {
        let command = try CheckCommand.parse(["--no-config", "--update-baseline", "a.json"])
        #expect(throws: ExitCode(2)) { try command.run() }
    }

    @Test func checkOfAFileWithAnErrorExitsOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("database.rules.json", #"{"rules": {".read": "auth.uid ==="}}"#)
        let report = dir.file("report.json").path
        let command = try CheckCommand.parse(["--no-config", "--format", "json", "--output-file", report, path])
        #expect(throws: ExitCode(1)) { try command.run() }
        #expect(FileManager.default.contents(atPath: report).map { !$0.isEmpty } == true)
    }

    @Test func serveStopsWithTwoOnAnUnknownLogFormat() async throws {
        let command = try ServeCommand.parse(["--log", "loud"])
        await #expect(throws: ExitCode(2)) { try await command.run() }
    }

    @Test func testOfAMissingSpecExitsNonZero() throws {
        let command = try TestCommand.parse(["/nonexistent/spec.yaml"])
        #expect {
            try command.run()
        } throws: { error in
            (error as? ExitCode).map { $0.rawValue != 0 } ?? false
        }
    }
}
