import Foundation
import Synchronization
import Testing

@testable import DatabaseServer

/// The server speaks through the console it is given: its request log's lines and its notices
/// (here, a long-polling client taken to be gone) reach the console, not a global printer.
@Suite struct ServerConsoleTests {
    final class Captured: Sendable {
        let text = Mutex("")
        var console: ServerConsole { ServerConsole { line in self.text.withLock { $0 += line } } }
    }

    @Test func theRequestLogWritesThroughItsConsole() {
        let captured = Captured()
        let log = RequestLog(format: .text, console: captured.console)
        log.record(StaleVerdictTests.record(transport: .ws, method: "p", status: 0, reason: "a retry"))
        #expect(captured.text.withLock { $0 } == "RETRY p demo/counter (uid alice) 0 1.5 ms\n     a retry\n")
    }

    @Test func aNoticeOfTheLongPollingSessionsGoesToTheConsole() async throws {
        let captured = Captured()
        var limits = ServerLimits()
        limits.longPollIdleSeconds = 0.2
        let sessions = LongPollSessions(limits: limits, console: captured.console)
        let registry = NamespaceRegistry(defaultName: "demo", rules: .open, coverage: nil)
        let wire = WireSession(namespace: registry.namespace("demo"), log: RequestLog(format: .quiet, console: captured.console), limits: limits,
                               host: "127.0.0.1", session: "rules-serve-1-test", explainDenials: false, transport: .lp, origin: .local)
        _ = try sessions.open(wire: wire, callback: "1")
        let runner = Task { await sessions.run() }
        for _ in 0..<50 where sessions.count > 0 { try await Task.sleep(for: .milliseconds(100)) }
        runner.cancel()
        #expect(sessions.count == 0)
        #expect(captured.text.withLock { $0 }.contains("lp demo session rules-serve-1-test: the client is gone"))
    }
}
