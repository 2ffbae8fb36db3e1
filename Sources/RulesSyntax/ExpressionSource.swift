/// Where a rule expression came from: its decoded text and the JSON string that spelled it.
///
/// Maps offsets in the expression to offsets in the file, so diagnostics and explanations
/// point at exact columns even when the expression contains escapes or line breaks.
package struct ExpressionSource: Sendable, Hashable {
    /// The JSON string holding the expression.
    package var string: JSONString

    /// Creates a source from the JSON string.
    package init(string: JSONString) { self.string = string }

    /// The expression text.
    package var text: String { string.value }

    /// Maps a range of the expression to a range of the file.
    package func fileRange(_ range: SourceRange) -> SourceRange { string.sourceRange(ofDecoded: range) }
}
