import Dispatch
import Foundation
import Synchronization

/// The line `rules check` shows on a terminal while a file takes longer than a second (the access
/// model's solver may spend its budget on it): `rules check: checking rules.json (2 of 5)…` on
/// standard error, rewritten in place and erased when the file is done. Nothing when standard
/// error is not a terminal, so logs and CI output stay as they are.
package final class CheckProgressLine: Sendable {
    private let enabled: Bool
    private let delay: Double
    private let write: @Sendable (String) -> Void
    /// The file being checked (its number, to tell one file from the next), and whether its line
    /// is on the screen.
    private let state = Mutex<(file: Int, shown: Bool)>((0, false))

    package init(
        enabled: Bool = isatty(STDERR_FILENO) != 0, delay: Double = 1,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.enabled = enabled
        self.delay = delay
        self.write = write
    }

    /// Starts the wait for file `index` (from 0) of `count`; its line shows after the delay.
    package func begin(_ path: String, index: Int, count: Int) {
        guard enabled else { return }
        let file = state.withLock { s in
            s.file += 1
            return s.file
        }
        let of = count > 1 ? " (\(index + 1) of \(count))" : ""
        let line = "rules check: checking \(path)\(of)…"
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            state.withLock { s in
                guard s.file == file else { return }
                s.shown = true
                write("\r\u{1B}[K" + line)
            }
        }
    }

    /// Ends the current file's wait, erasing its line if it was shown.
    package func end() {
        guard enabled else { return }
        state.withLock { s in
            s.file += 1
            if s.shown { write("\r\u{1B}[K") }
            s.shown = false
        }
    }
}
