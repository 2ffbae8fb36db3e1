import DatabaseServer
import Foundation
import Synchronization

/// Prints how a long `--import` goes: nothing for a file read within ``quietSeconds``; past
/// that, a line at most every ``intervalSeconds`` (`importing blog.json: 120 MB of 300 MB (40 %)`)
/// and a last one with the size, the leaves and the time
/// (`imported blog.json: 300 MB, 4200000 leaves in 6.1 s`).
package final class ImportProgressPrinter: Sendable {
    /// How long a file is read before progress is shown.
    package let quietSeconds: Double
    /// The least time between two progress lines.
    package let intervalSeconds: Double
    private let write: @Sendable (String) -> Void
    /// The file whose progress was last printed, and when (its `seconds`).
    private let last = Mutex<(file: String, seconds: Double)?>(nil)

    /// A printer writing lines (each ending in a newline) with `write`: standard error by default.
    package init(
        quietSeconds: Double = 1, intervalSeconds: Double = 1,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.quietSeconds = quietSeconds
        self.intervalSeconds = intervalSeconds
        self.write = write
    }

    /// Takes one report (the ``DatabaseServer/RulesServer/importExport(from:progress:)`` callback).
    package func report(_ progress: ImportProgress) {
        let line: String? = last.withLock { last in
            let shown = last?.file == progress.file
            if let leaves = progress.leaves {
                guard shown || progress.seconds >= quietSeconds else { return nil }
                last = nil
                return "rules serve: imported \(progress.file): \(Self.size(progress.bytesRead)), \(leaves) leaves in \(String(format: "%.1f", progress.seconds)) s\n"
            }
            guard progress.seconds >= quietSeconds else { return nil }
            if shown, let previous = last?.seconds, progress.seconds - previous < intervalSeconds { return nil }
            last = (progress.file, progress.seconds)
            let percent = progress.totalBytes > 0 ? " (\(min(100, progress.bytesRead * 100 / progress.totalBytes)) %)" : ""
            return "rules serve: importing \(progress.file): \(Self.size(progress.bytesRead)) of \(Self.size(progress.totalBytes))\(percent)\n"
        }
        if let line { write(line) }
    }

    /// A size in megabytes (10^6 bytes): one decimal below 10 MB.
    static func size(_ bytes: Int) -> String {
        let megabytes = Double(bytes) / 1_000_000
        return megabytes < 10 ? String(format: "%.1f MB", megabytes) : "\(Int(megabytes.rounded())) MB"
    }
}
