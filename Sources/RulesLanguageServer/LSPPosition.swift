import RulesSyntax

/// A position as LSP gives it: a 0-based line and a 0-based column in UTF-16 code units.
package struct LSPPosition: Hashable, Sendable, CustomStringConvertible {
    package var line: Int
    package var character: Int

    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    package var json: JSONText { .object([("line", .int(line)), ("character", .int(character))]) }

    package var description: String { "\(line):\(character)" }
}

extension LSPPosition {
    /// Reads `{line, character}`.
    init?(_ node: JSONNode?) {
        guard let line = node?["line"]?.intValue, let character = node?["character"]?.intValue else { return nil }
        self.init(line: line, character: character)
    }
}
