import Foundation

/// `--watch`: run, then re-run on every save, showing what changed since the run before.
///
/// The first run prints its whole report; each later one clears the screen (when standard
/// output is a terminal) and prints the changes and the summary. Ctrl-C stops between runs;
/// `runs` (`--watch-runs`) stops after that many runs. The status is the last run's.
struct WatchLoop {
    var paths: [String]
    var runs: Int?
    var isTerminal = isatty(STDOUT_FILENO) != 0

    func run(_ body: () throws -> WatchRun) rethrows -> Int32 {
        let interrupt = InterruptFlag()
        var watcher = FileWatcher(paths: paths)
        var previous: WatchRun?
        var count = 0
        var trigger: [String] = []
        while true {
            let current = try body()
            count += 1
            var out = ""
            if let previous {
                if isTerminal { out += "\u{1B}[2J\u{1B}[H" }
                out += "Re-ran after a change to \(trigger.joined(separator: ", ")).\n"
                let changes = current.changes(since: previous)
                out += changes.isEmpty ? "No change in the findings.\n" : changes.joined(separator: "\n") + "\n"
                out += current.summary + "\n"
            } else {
                out += current.report
            }
            previous = current
            let done = runs.map { count >= $0 } ?? false
            if !done { out += "Watching \(watcher.fileCount) file\(watcher.fileCount == 1 ? "" : "s") for changes (Ctrl-C to stop).\n" }
            FileHandle.standardOutput.write(Data(out.utf8))
            if done { return current.status }
            guard let changed = watcher.waitForChange(stop: { interrupt.isSet }) else {
                FileHandle.standardOutput.write(Data("Stopped watching.\n".utf8))
                return current.status
            }
            trigger = changed
        }
    }
}
