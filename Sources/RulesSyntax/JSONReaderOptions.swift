/// Limits and leniencies of the relaxed JSON reader.
package struct JSONReaderOptions: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted; deeper input is an error, not a crash.
    package var maxDepth: Int
    /// Accept `//` and `/* */` comments where whitespace may stand.
    package var allowsComments: Bool
    /// Accept a trailing comma before `}` or `]` (with a warning).
    package var allowsTrailingCommas: Bool
    /// Accept raw line breaks and tabs inside strings.
    package var allowsRawLineBreaksInStrings: Bool

    /// The settings for rules files: comments, trailing commas and raw line breaks allowed.
    package static let rulesFile = JSONReaderOptions(
        maxDepth: 256, allowsComments: true, allowsTrailingCommas: true, allowsRawLineBreaksInStrings: true)

    /// Creates options.
    package init(maxDepth: Int, allowsComments: Bool, allowsTrailingCommas: Bool, allowsRawLineBreaksInStrings: Bool) {
        self.maxDepth = maxDepth
        self.allowsComments = allowsComments
        self.allowsTrailingCommas = allowsTrailingCommas
        self.allowsRawLineBreaksInStrings = allowsRawLineBreaksInStrings
    }
}
