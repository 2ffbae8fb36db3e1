/// Where a rule expression came from: its decoded text and the JSON string that spelled it.
///
/// Maps offsets in the expression to offsets in the file, so diagnostics and explanations
/// point at exact columns even when the expression contains escapes or line breaks.
public struct ExpressionSource: Sendable, Hashable {
    /// The JSON string holding the expression.
    public var string: JSONString

    /// Creates a source from the JSON string.
    public init(string: JSONString) { self.string = string }

    /// The expression text.
    public var text: String { string.value }

    /// Maps a range of the expression to a range of the file.
    public func fileRange(_ range: SourceRange) -> SourceRange { string.sourceRange(ofDecoded: range) }
}
