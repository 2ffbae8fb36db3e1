import Foundation

/// Where the server's own notices go (a client cut off, a namespace refused, storage failing,
/// rules reloaded) and its request log's lines: standard error for `rules serve`; an embedding
/// program or a test may pass another. Handed to every part that speaks (``RequestLog`` carries
/// it to the doors), never reached through a global.
package struct ServerConsole: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A console that hands each text (a line or several, newline-terminated) to `sink`.
    package init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Standard error.
    package static let standardError = ServerConsole { FileHandle.standardError.write(Data($0.utf8)) }

    /// Writes one notice, as a line.
    package func say(_ line: String) {
        sink(line + "\n")
    }

    /// Writes text as it is (it ends its own lines).
    package func write(_ text: String) {
        sink(text)
    }
}
