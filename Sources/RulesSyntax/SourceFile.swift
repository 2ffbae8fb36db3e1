/// The bytes of one input file, with a table of line starts for turning offsets into lines and columns.
///
/// Immutable and `Sendable`: a compiled ruleset keeps its source file so that explanations can
/// quote the rule that decided.
public final class SourceFile: Sendable {
    /// The path as the user gave it (used in diagnostics).
    public let path: String
    /// The raw bytes, exactly as read.
    public let bytes: [UInt8]
    /// The offset of the first byte of each line; `lineStarts[0] == 0`.
    public let lineStarts: [Int]

    /// Creates a source file from raw bytes.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for i in 0..<buffer.count where buffer[i] == UInt8(ascii: "\n") {
                starts.append(i + 1)
            }
        }
        self.lineStarts = starts
    }

    /// Creates a source file from text.
    public convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The 1-based line and column of a byte offset (clamped to the file).
    public func location(of offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        // The last line start that is <= offset.
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SourceLocation(line: lo + 1, column: offset - lineStarts[lo] + 1)
    }

    /// The location of the start of a range.
    public func location(of range: SourceRange) -> SourceLocation { location(of: Int(range.start)) }

    /// The text of a 1-based line, without its line break (empty when out of range).
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The text of a range of the file.
    public func text(of range: SourceRange) -> String {
        let s = max(0, min(Int(range.start), bytes.count))
        let e = max(s, min(Int(range.end), bytes.count))
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }
}
