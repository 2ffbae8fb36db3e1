import RulesSyntax

/// Converts between the project's UTF-8 byte offsets and LSP positions (UTF-16 columns).
///
/// Lines end at `\n` (a `\r` before it belongs to the line, as in ``SourceFile``). A character
/// outside the Basic Multilingual Plane is two UTF-16 units: a column between them, or inside a
/// multi-byte UTF-8 sequence, maps to the start of the character. Out-of-range positions clamp:
/// past the end of a line is its end, past the last line is the end of the text.
package struct PositionConverter: Sendable {
    /// The text's bytes.
    package let bytes: [UInt8]
    /// The offset of each line's first byte.
    package let lineStarts: [Int]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.lineStarts = starts
    }

    package init(_ file: SourceFile) {
        self.bytes = file.bytes
        self.lineStarts = file.lineStarts
    }

    /// The end of a line's content (its `\n`, or the end of the text).
    private func lineEnd(_ line: Int) -> Int {
        line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
    }

    /// The UTF-16 units the character starting with this byte takes (0 for a continuation byte).
    private static func utf16Units(lead b: UInt8) -> Int {
        switch b {
        case 0..<0x80: 1
        case 0x80..<0xC0: 0
        case 0xC0..<0xF0: 1
        default: 2
        }
    }

    /// The LSP position of a byte offset.
    package func position(of offset: Int) -> LSPPosition {
        let offset = max(0, min(offset, bytes.count))
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var units = 0
        var i = lineStarts[lo]
        while i < offset {
            let b = bytes[i]
            let length = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            // A character that does not end by `offset` is not counted.
            guard i + length <= offset else { break }
            units += Self.utf16Units(lead: b)
            i += length
        }
        return LSPPosition(line: lo, character: units)
    }

    /// The byte offset of an LSP position.
    package func offset(of position: LSPPosition) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let end = lineEnd(position.line)
        var i = lineStarts[position.line]
        var units = 0
        while i < end {
            let width = Self.utf16Units(lead: bytes[i])
            if width > 0 {
                if units + width > position.character { break }
                units += width
            }
            i += 1
            // Skip the continuation bytes of the character just counted.
            while i < end && Self.utf16Units(lead: bytes[i]) == 0 { i += 1 }
        }
        return i
    }

    /// The LSP range of a byte range.
    package func range(_ r: SourceRange) -> LSPRange {
        LSPRange(start: position(of: Int(r.start)), end: position(of: Int(r.end)))
    }

    /// The byte range of an LSP range.
    package func sourceRange(_ r: LSPRange) -> SourceRange {
        SourceRange(offset(of: r.start), offset(of: r.end))
    }
}
