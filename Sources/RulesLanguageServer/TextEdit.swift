import RulesSyntax

/// One text edit: bytes replaced by text.
package struct TextEdit: Sendable, Equatable {
    package var range: SourceRange
    package var newText: String

    package func json(_ positions: PositionConverter) -> JSONText {
        .object([("range", positions.range(range).json), ("newText", .string(newText))])
    }
}
