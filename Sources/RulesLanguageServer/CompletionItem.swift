import RulesSyntax

/// One completion item.
package struct CompletionItem: Sendable, Equatable {
    /// LSP's `CompletionItemKind`s used here.
    package enum Kind: Int, Sendable {
        case method = 2
        case field = 5
        case variable = 6
        case property = 10
        case keyword = 14
        case folder = 19
    }

    package var label: String
    package var kind: Kind
    package var detail: String
    /// The text that replaces ``replacing``.
    package var newText: String
    /// The bytes the item replaces: the partial name before the cursor.
    package var replacing: SourceRange

    package func json(_ positions: PositionConverter) -> JSONText {
        .object([
            ("label", .string(label)), ("kind", .int(kind.rawValue)), ("detail", .string(detail)),
            ("textEdit", .object([("range", positions.range(replacing).json), ("newText", .string(newText))])),
        ])
    }
}
