/// An error raised when PCRE2 cannot compile a regular expression.
///
/// Patterns that ``RegexSubset/validate(pattern:flags:)`` accepts rarely fail here; when they do it
/// is usually a size limit (too large, too deeply nested).
package struct RegexCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's error code: above 100 for syntax errors, negative for UTF-8 errors, and
    /// `PCRE2_ERROR_NOMEMORY` when memory ran out.
    package let code: Int32
    /// The UTF-8 offset in the Firebase pattern where PCRE2 stopped (mapped back from the
    /// translated PCRE2 text to the start of the token it fell in).
    package let byteOffset: Int
    /// PCRE2's message, e.g. `regular expression is too large`.
    package let message: String

    /// Creates an error.
    package init(code: Int32, byteOffset: Int, message: String) {
        self.code = code
        self.byteOffset = byteOffset
        self.message = message
    }

    package var description: String { "regular expression error at offset \(byteOffset): \(message)" }
}
