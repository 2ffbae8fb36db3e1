import Foundation
import RulesCommands
import Synchronization
import Testing

/// The line `rules check` shows on a terminal while a file takes longer than its delay.
@Suite struct CheckProgressLineTests {
    final class Screen: Sendable {
        let text = Mutex("")
        func write(_ s: String) { text.withLock { $0 += s } }
    }

    /// Waits (at most five seconds) until `screen` shows `expected`.
    static func wait(for expected: String, on screen: Screen) -> Bool {
        for _ in 0..<500 {
            if screen.text.withLock({ $0.contains(expected) }) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func aSlowFileShowsItsLineThenErasesIt() {
        let screen = Screen()
        let line = CheckProgressLine(enabled: true, delay: 0.01, write: screen.write)
        line.begin("rules.json", index: 1, count: 3)
        #expect(Self.wait(for: "rules check: checking rules.json (2 of 3)…", on: screen))
        line.end()
        #expect(screen.text.withLock { $0 } == "\r\u{1B}[Krules check: checking rules.json (2 of 3)…\r\u{1B}[K")
    }

    @Test func aFileDoneBeforeTheDelayShowsNothing() {
        let screen = Screen()
        let line = CheckProgressLine(enabled: true, delay: 0.05, write: screen.write)
        line.begin("a.json", index: 0, count: 1)
        line.end()
        line.begin("b.json", index: 0, count: 1)
        // b's line shows (one file: no count); a's never does.
        #expect(Self.wait(for: "checking b.json…", on: screen))
        line.end()
        #expect(!screen.text.withLock { $0 }.contains("a.json"))
    }

    @Test func nothingWhenNotATerminal() {
        let screen = Screen()
        let line = CheckProgressLine(enabled: false, delay: 0, write: screen.write)
        line.begin("rules.json", index: 0, count: 1)
        Thread.sleep(forTimeInterval: 0.05)
        line.end()
        #expect(screen.text.withLock { $0 }.isEmpty)
    }
}
