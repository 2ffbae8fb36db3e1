/// One run of a watched command: its whole report, the problems it found (each by a key that
/// survives unrelated edits, with the line that shows it) and its summary.
struct WatchRun {
    /// The report a run without `--watch` prints.
    var report: String
    /// The problems: key → the line to show.
    var problems: [(key: String, line: String)]
    /// The last line of the report (`2 errors, 1 warning in 1 file.`, `4 passed, 1 failed`).
    var summary: String
    /// The exit status a run without `--watch` would have.
    var status: Int32

    /// What changed since `previous`: `fixed: ...` for each problem gone, `new: ...` for each new one.
    func changes(since previous: WatchRun) -> [String] {
        let before = Set(previous.problems.map(\.key)), now = Set(problems.map(\.key))
        return previous.problems.filter { !now.contains($0.key) }.map { "fixed: " + $0.line }
            + problems.filter { !before.contains($0.key) }.map { "new: " + $0.line }
    }
}
