/// The first error found in an expression; parsing stops there.
///
/// Each factory fixes the code and the exact wording of one message, so the wording lives in one
/// place. Ranges are UTF-8 offsets in the expression text.
struct ExpressionSyntaxError: Error {
    /// The diagnostic to report.
    var diagnostic: Diagnostic

    private init(_ code: DiagnosticCode, _ message: String, _ range: SourceRange) {
        diagnostic = .error(code, message, at: range)
    }

    /// The longest token text quoted in a message; longer tokens are cut with an ellipsis.
    private static let maxQuotedBytes = 40

    static func unexpectedEnd(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Unexpected end of expression.", range)
    }

    /// `bytes` is the token's spelling.
    static func unexpectedToken(_ bytes: ArraySlice<UInt8>, at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Unexpected token '\(quoted(bytes))'.", range)
    }

    /// `what` is already quoted, e.g. `')'` or `',' or ']'`.
    static func expected(_ what: String, at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Expected \(what).", range)
    }

    static func expectedPropertyName(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Expected a property name after '.'.", range)
    }

    static func assignment(at range: SourceRange) -> Self {
        // Recorded from the server (spec §1.2).
        Self(.expressionAssignment, "Rule expressions may not contain assignments.", range)
    }

    static func multipleStatements(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Rule expressions may not contain multiple statements.", range)
    }

    static func keyword(_ word: String, at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Rule expressions may not contain '\(word)'.", range)
    }

    static func forbiddenOperator(_ spelling: String, at range: SourceRange) -> Self {
        Self(.expressionOperator, "Rule expressions may not contain operator '\(spelling)'.", range)
    }

    static func unaryPlus(at range: SourceRange) -> Self {
        Self(.expressionOperator, "Unary '+' is not supported.", range)
    }

    static func unterminatedString(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Unterminated string literal.", range)
    }

    static func invalidEscape(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Invalid escape sequence in string literal.", range)
    }

    static func unterminatedRegex(at range: SourceRange) -> Self {
        // Recorded from the server (spec §1.2), lower case and without a full stop.
        Self(.expressionSyntax, "unterminated regular expression literal", range)
    }

    static func emptyRegex(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Empty regular expression literal.", range)
    }

    static func invalidNumber(at range: SourceRange) -> Self {
        Self(.expressionSyntax, "Invalid number literal.", range)
    }

    static func tooDeep(limit: Int, at range: SourceRange) -> Self {
        Self(.expressionTooDeep, "Expression is nested too deeply (more than \(limit) levels).", range)
    }

    static func tooLong(length: Int, limit: Int) -> Self {
        Self(.expressionTooLong, "Expression is too long (\(length) bytes; the limit is \(limit)).", SourceRange(0, length))
    }

    /// The spelling of a token for a message: cut at a character boundary when long, with
    /// control characters shown as `\uXXXX` so the message stays on one printable line.
    private static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        var cut = false
        if slice.count > maxQuotedBytes {
            var end = slice.startIndex + maxQuotedBytes
            // Back off continuation bytes (10xxxxxx) so no character is split.
            while end > slice.startIndex, slice[end] & 0xC0 == 0x80 { end -= 1 }
            slice = slice[slice.startIndex..<end]
            cut = true
        }
        var text = ""
        for scalar in String(decoding: slice, as: UTF8.self).unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return cut ? text + "…" : text
    }
}
