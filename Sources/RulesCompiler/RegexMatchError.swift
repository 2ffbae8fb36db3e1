import CPCRE2

/// An error raised while matching; "no match" is not an error but `false`.
///
/// The usual cause is a resource limit stopping runaway backtracking (see ``isMatchLimit``);
/// the rules engine treats that as a failed rule, never as a crash.
package struct RegexMatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's (negative) error code, e.g. `PCRE2_ERROR_MATCHLIMIT` (-47).
    package let code: Int32
    /// PCRE2's message, e.g. `match limit exceeded`.
    package let message: String

    /// Creates an error.
    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// Creates an error with PCRE2's message for `code`.
    init(code: Int32) {
        self.init(code: code, message: PCRE2Info.errorMessage(code))
    }

    /// Whether a resource limit stopped the match: the match limit, the depth limit, the heap
    /// limit, or the JIT stack.
    package var isMatchLimit: Bool {
        code == PCRE2_ERROR_MATCHLIMIT || code == PCRE2_ERROR_DEPTHLIMIT || code == PCRE2_ERROR_HEAPLIMIT
            || code == PCRE2_ERROR_JIT_STACKLIMIT
    }

    package var description: String { "regular expression match error \(code): \(message)" }
}
