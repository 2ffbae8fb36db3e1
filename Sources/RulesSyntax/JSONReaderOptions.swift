/// Limits and leniencies of the relaxed JSON reader.
public struct JSONReaderOptions: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted; deeper input is an error, not a crash.
    public var maxDepth: Int
    /// Accept `//` and `/* */` comments where whitespace may stand.
    public var allowsComments: Bool
    /// Accept a trailing comma before `}` or `]` (with a warning).
    public var allowsTrailingCommas: Bool
    /// Accept raw line breaks and tabs inside strings.
    public var allowsRawLineBreaksInStrings: Bool

    /// The settings for rules files: comments, trailing commas and raw line breaks allowed.
    public static let rulesFile = JSONReaderOptions(
        maxDepth: 256, allowsComments: true, allowsTrailingCommas: true, allowsRawLineBreaksInStrings: true)

    /// Creates options.
    public init(maxDepth: Int, allowsComments: Bool, allowsTrailingCommas: Bool, allowsRawLineBreaksInStrings: Bool) {
        self.maxDepth = maxDepth
        self.allowsComments = allowsComments
        self.allowsTrailingCommas = allowsTrailingCommas
        self.allowsRawLineBreaksInStrings = allowsRawLineBreaksInStrings
    }
}
