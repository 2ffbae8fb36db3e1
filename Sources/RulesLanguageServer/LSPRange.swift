import RulesSyntax

/// A range of LSP positions.
package struct LSPRange: Hashable, Sendable {
    package var start: LSPPosition
    package var end: LSPPosition

    package init(start: LSPPosition, end: LSPPosition) {
        self.start = start
        self.end = end
    }

    package var json: JSONText { .object([("start", start.json), ("end", end.json)]) }

    /// Reads `{start, end}`.
    init?(_ node: JSONNode?) {
        guard let s = LSPPosition(node?["start"]), let e = LSPPosition(node?["end"]) else { return nil }
        self.init(start: s, end: e)
    }
}
