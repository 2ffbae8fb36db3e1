import RulesSyntax

/// A line of the rules file with a span in it, for the carets under the part of a rule that
/// decided.
package struct SourceExcerpt: Sendable, Hashable {
    /// Where the span starts in the file (1-based line and byte column, as in every position).
    package var location: SourceLocation
    /// The whole line, without its line break.
    package var line: String
    /// The span's first character in ``line`` (0-based, counting characters).
    package var start: Int
    /// The span's length in characters: at least 1; a span that runs onto the next line is cut
    /// at the end of this one.
    package var length: Int

    /// Creates an excerpt.
    package init(location: SourceLocation, line: String, start: Int, length: Int) {
        self.location = location
        self.line = line
        self.start = start
        self.length = length
    }

    /// The excerpt of a range of a file: the range's first line, and the part of the range on it.
    package init(file: SourceFile, range: SourceRange) {
        let location = file.location(of: range)
        let line = file.lineText(location.line)
        let bytes = Array(line.utf8)
        let startByte = min(max(0, location.column - 1), bytes.count)
        let endByte = min(max(startByte, startByte + Int(range.end) - Int(range.start)), bytes.count)
        let start = String(decoding: bytes[0..<startByte], as: UTF8.self).count
        let length = String(decoding: bytes[startByte..<endByte], as: UTF8.self).count
        self.init(location: location, line: line, start: start, length: max(1, length))
    }

    /// Two lines: the source, and carets under the span. Neither is wider than `width` columns
    /// (counting a character as one): a longer line is cut to a window around the span, with `…`
    /// where text was left out, and a span wider than the window is cut at its end. Leading
    /// blanks are dropped; a tab counts as one space.
    package func rendered(width: Int = ExplanationFormat.sourceWidth) -> (source: String, carets: String) {
        var chars = line.map { $0 == "\t" ? " " : $0 }
        var start = min(max(0, start), chars.count)
        var lead = 0
        while lead < start, chars[lead] == " " { lead += 1 }
        chars.removeFirst(lead)
        start -= lead
        var length = max(1, min(length, chars.count - start))
        let width = max(width, 12)
        if chars.count <= width {
            return (String(chars), String(repeating: " ", count: start) + String(repeating: "^", count: length))
        }
        // The text between the two ellipses.
        let room = width - 2
        var from: Int
        if length >= room {
            from = start
            length = room
        } else {
            from = max(0, start - (room - length) / 2)
        }
        let to = min(chars.count, from + room)
        from = max(0, min(from, to - room))
        let head = from > 0 ? "…" : ""
        let tail = to < chars.count ? "…" : ""
        let source = head + String(chars[from..<to]) + tail
        let carets = String(repeating: " ", count: head.count + start - from)
            + String(repeating: "^", count: max(1, min(length, to - start)))
        return (source, carets)
    }
}

/// How explanations show text and values: clipped, and objects by their keys.
package enum ExplanationFormat {
    /// The widest source line (and caret line) an explanation shows. With the indentation
    /// `rules test` adds, explanation lines with carets stay within 120 columns.
    package static let sourceWidth = 100
    /// The width an explanation's first line keeps to, by cutting the source text of the
    /// deciding part it quotes (down to ``headlinePartWidth`` characters at the least).
    package static let headlineWidth = 120
    /// The fewest characters of the deciding part's source an explanation's first line keeps.
    package static let headlinePartWidth = 40
    /// The fewest characters of each alternative's source an explanation's first line keeps,
    /// when it shows the alternatives of the `||` that decided.
    package static let headlineAlternativeWidth = 12
    /// The longest value or operand text quoted on an explanation's first line.
    package static let headlineValueWidth = 40
    /// Keys an object's summary shows before `+N more`.
    package static let shownKeys = 3
    /// The characters of a key an object's summary shows.
    static let keyWidth = 24

    /// `{a, b, c}`; `{a, b, +3 more}` for more than ``shownKeys`` keys; `{}` for none. Keys are
    /// shown in the order given, clipped, and quoted when they hold blanks, commas, braces or
    /// quotes (or are empty).
    package static func objectSummary(firstKeys: [String], count: Int) -> String {
        if count <= 0 { return "{}" }
        let shown = min(firstKeys.count, count <= shownKeys ? count : shownKeys - 1)
        var parts = firstKeys.prefix(shown).map(key)
        if count > shown { parts.append("+\(count - shown) more") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// The summary of a stored object: its first keys, in the database's key order.
    package static func objectSummary(_ node: DataNode) -> String {
        objectSummary(firstKeys: node.firstChildKeys(shownKeys), count: node.childCount)
    }

    /// An object in `auth` by its keys (sorted as the database sorts keys), an array by its length.
    package static func authSummary(_ value: AuthValue) -> String {
        switch value {
        case .object(let members):
            let keys = members.keys.sorted { KeyOrder.compare($0, $1) < 0 }
            return objectSummary(firstKeys: Array(keys.prefix(shownKeys)), count: keys.count)
        case .array(let items):
            return "[\(items.count) \(items.count == 1 ? "item" : "items")]"
        default:
            return Value(value).description
        }
    }

    /// A key as an object summary shows it.
    static func key(_ k: String) -> String {
        let plain = !k.isEmpty && !k.unicodeScalars.contains { " ,{}'\"\t\n\r\\".unicodeScalars.contains($0) }
        return plain ? clip(k, keyWidth) : Value.quote(k, limit: keyWidth)
    }

    /// Widths for texts of the given lengths sharing `room` characters: a text that fits in an
    /// even share keeps its length, the room it leaves goes to the others; none below `least`.
    static func shares(of room: Int, among lengths: [Int], least: Int) -> [Int] {
        var widths = lengths
        var open = Array(lengths.indices)
        var remaining = room
        while !open.isEmpty {
            let share = remaining / open.count
            let fitting = open.filter { lengths[$0] <= share }
            if fitting.isEmpty {
                for i in open { widths[i] = max(share, least) }
                break
            }
            for i in fitting { remaining -= lengths[i] }
            open.removeAll { fitting.contains($0) }
        }
        return widths
    }

    /// Text cut to `width` characters, the last of them `…` when it was cut.
    package static func clip(_ text: String, _ width: Int) -> String {
        guard width > 1, text.count > width else { return text }
        return String(text.prefix(width - 1)) + "…"
    }
}
