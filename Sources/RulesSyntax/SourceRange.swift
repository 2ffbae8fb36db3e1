/// A half-open range of UTF-8 byte offsets, `start..<end`.
///
/// In a rules file the offsets count from the first byte of the file. In an expression parsed
/// on its own they count from the first byte of the decoded expression text; an
/// ``ExpressionSource`` maps those back to the file.
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
    /// The first byte.
    public var start: Int32
    /// One past the last byte.
    public var end: Int32

    /// Creates a range from `start` up to, not including, `end`.
    public init(start: Int32, end: Int32) {
        self.start = start
        self.end = max(start, end)
    }

    /// Creates a range from integer offsets.
    public init(_ start: Int, _ end: Int) {
        self.init(start: Int32(clamping: start), end: Int32(clamping: end))
    }

    /// The empty range at `offset`.
    public static func at(_ offset: Int) -> SourceRange { SourceRange(offset, offset) }

    /// The number of bytes covered.
    public var length: Int { Int(end - start) }

    /// The smallest range that covers both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }

    public var description: String { "\(start)..<\(end)" }
}
