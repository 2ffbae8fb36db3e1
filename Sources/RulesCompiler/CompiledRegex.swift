import CPCRE2

/// A Firebase regular expression compiled (and, where possible, JIT-compiled) by PCRE2.
///
/// Matching is an unanchored search, like JavaScript's `RegExp.prototype.test`, in UTF mode
/// without UCP, so `\d` and `\w` are ASCII-only as in JavaScript. `$` matches only at the very end
/// (`PCRE2_DOLLAR_ENDONLY`) and `\C` is refused. The pattern is translated by
/// ``RegexSubset/pcre2Pattern(for:)`` first; validate it with ``RegexSubset/validate(pattern:flags:)``
/// beforehand, since this type compiles whatever PCRE2 accepts.
///
/// One known difference from JavaScript remains: with `i`, PCRE2 10.42 folds case by full
/// Unicode rules, so `/s/i` also matches `ſ` (U+017F) and `/k/i` matches the Kelvin sign, which
/// JavaScript without the `u` flag does not.
///
/// The compiled code and the match context are never changed after `init`, and PCRE2 allows
/// both to be used by many threads at once, hence `@unchecked Sendable`. The match data is the
/// per-match state and lives in a ``MatchBuffer``.
///
/// Runaway backtracking (`^(a+)+$` against `"aaaa…b"`) is stopped by the match limit, which both
/// the JIT and the interpreter honour, and by the depth limit, which only the interpreter
/// honours. When the JIT runs out of its default 32 KB stack the match is retried with the
/// interpreter, so the answer never depends on the JIT stack size.
package final class CompiledRegex: @unchecked Sendable {
    /// `pcre2_code_8 *`, read-only after `init`.
    private let code: OpaquePointer
    /// `pcre2_match_context_8 *` holding the limits, read-only after `init`.
    private let matchContext: OpaquePointer

    /// The Firebase pattern, as written between the slashes.
    package let pattern: String
    /// The PCRE2 text compiled for ``pattern``.
    package let pcre2Pattern: String
    /// Whether the `i` flag was given.
    package let caseInsensitive: Bool
    /// Whether the JIT compiled the pattern; otherwise the interpreter runs it.
    package let isJITCompiled: Bool
    /// The most backtracking steps one match may take.
    package let matchLimit: UInt32
    /// Match contexts with smaller match limits (×10 from ``firstTryLimit``, below
    /// ``matchLimit``), for the tries of ``matches(_:steps:)``; read-only after `init`.
    private let tryContexts: [(limit: Int, context: OpaquePointer)]

    /// The match limit of the first try of ``matches(_:steps:)``.
    package static let firstTryLimit = 100

    /// Compiles a Firebase pattern.
    ///
    /// - Parameters:
    ///   - firebasePattern: the pattern between the slashes of the literal.
    ///   - caseInsensitive: the `i` flag.
    ///   - matchLimit: the most backtracking steps one match may take (`pcre2_set_match_limit`).
    ///   - depthLimit: the deepest backtracking nesting for the interpreter (`pcre2_set_depth_limit`).
    ///   - useJIT: set to `false` to always use the interpreter.
    /// - Throws: ``RegexCompileError`` with PCRE2's code and message, and the offset mapped back
    ///   into `firebasePattern`.
    package init(
        firebasePattern: String, caseInsensitive: Bool, matchLimit: UInt32 = 100_000, depthLimit: UInt32 = 10_000,
        useJIT: Bool = true
    ) throws(RegexCompileError) {
        let translated = RegexSubset.pcre2Pattern(for: firebasePattern)
        var options: UInt32 =
            PCRE2_UTF  // code points, not bytes
            | PCRE2_NO_UTF_CHECK  // a Swift String is always valid UTF-8
            | PCRE2_NEVER_UCP  // keep \d \w ASCII-only, even against a (*UCP) start
            | PCRE2_DOLLAR_ENDONLY  // JavaScript: $ does not match before a final newline
            | PCRE2_NEVER_BACKSLASH_C  // \C could split a UTF-8 sequence
        if caseInsensitive { options |= PCRE2_CASELESS }

        var errorCode: Int32 = 0
        var errorOffset = 0
        // A trailing zero keeps the buffer non-empty, so its address is never nil (PCRE2 refuses
        // a nil pattern even with length 0); the explicit length leaves it out.
        let bytes = Array(translated.utf8) + [0]
        let compiled = bytes.withUnsafeBufferPointer {
            pcre2_compile_8($0.baseAddress, $0.count - 1, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw RegexCompileError(
                code: errorCode,
                byteOffset: RegexSubset.sourceOffset(forPCRE2Offset: errorOffset, in: firebasePattern),
                message: PCRE2Info.errorMessage(errorCode))
        }
        guard let context = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(compiled)
            throw RegexCompileError(
                code: PCRE2_ERROR_NOMEMORY, byteOffset: 0, message: PCRE2Info.errorMessage(PCRE2_ERROR_NOMEMORY))
        }
        pcre2_set_match_limit_8(context, matchLimit)
        pcre2_set_depth_limit_8(context, depthLimit)
        var tries: [(limit: Int, context: OpaquePointer)] = []
        var limit = Self.firstTryLimit
        while limit < Int(matchLimit), let smaller = pcre2_match_context_copy_8(context) {
            pcre2_set_match_limit_8(smaller, UInt32(limit))
            tries.append((limit, smaller))
            limit *= 10
        }
        tries.append((Int(matchLimit), context))
        self.tryContexts = tries
        self.matchLimit = matchLimit
        // The JIT must finish before the object is shared. It can fail (no JIT support, W^X
        // policies); the interpreter then runs the same code.
        self.isJITCompiled = useJIT && PCRE2Info.jitAvailable && pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0
        self.code = compiled
        self.matchContext = context
        self.pattern = firebasePattern
        self.pcre2Pattern = translated
        self.caseInsensitive = caseInsensitive
    }

    deinit {
        for t in tryContexts.dropLast() { pcre2_match_context_free_8(t.context) }
        pcre2_match_context_free_8(matchContext)
        pcre2_code_free_8(code)
    }

    /// Whether the pattern occurs anywhere in `subject`, using caller-owned match data.
    ///
    /// - Throws: ``RegexMatchError`` when a limit stops the match (``RegexMatchError/isMatchLimit``)
    ///   or PCRE2 reports another failure.
    package func matches(_ subject: String, buffer: borrowing MatchBuffer) throws(RegexMatchError) -> Bool {
        guard let data = buffer.data else { throw RegexMatchError(code: PCRE2_ERROR_NOMEMORY) }
        let rc: Int32
        if let result = subject.utf8.withContiguousStorageIfAvailable({ run($0, data) }) {
            rc = result
        } else {
            var native = subject  // bridged or otherwise non-contiguous: make it native once
            rc = native.withUTF8 { run($0, data) }
        }
        // rc == 0 is a match whose offsets did not fit in the one-pair buffer.
        if rc >= 0 { return true }
        if rc == PCRE2_ERROR_NOMATCH { return false }
        throw RegexMatchError(code: rc)
    }

    /// Whether the pattern occurs anywhere in `subject`; allocates match data for this call.
    package func matches(_ subject: String) throws(RegexMatchError) -> Bool {
        let buffer = MatchBuffer()
        return try matches(subject, buffer: buffer)
    }

    /// Whether the pattern occurs anywhere in `subject`, paid for from a budget of `steps`:
    /// nil (and `steps` below zero) when the budget cannot pay for the match.
    ///
    /// PCRE2 does not say how many steps a match took, so the match is tried with growing
    /// match limits (``firstTryLimit``, then ×10 up to ``matchLimit``), and each try costs its
    /// limit whether or not it needs all of it: a match costs at most about ten times the steps
    /// it took (at least ``firstTryLimit``), and never more than ``matchLimit`` plus its smaller
    /// tries. A try that the budget cannot pay for in full is not made.
    ///
    /// - Throws: ``RegexMatchError`` when ``matchLimit`` (or the depth limit) stops the match, or
    ///   PCRE2 reports another failure.
    package func matches(_ subject: String, steps: inout Int) throws(RegexMatchError) -> Bool? {
        let buffer = MatchBuffer()
        guard let data = buffer.data else { throw RegexMatchError(code: PCRE2_ERROR_NOMEMORY) }
        var native = subject
        for (index, attempt) in tryContexts.enumerated() {
            guard steps >= attempt.limit else {
                steps = -1
                return nil
            }
            steps -= attempt.limit
            let rc = native.withUTF8 { run($0, data, attempt.context) }
            if rc >= 0 { return true }
            if rc == PCRE2_ERROR_NOMATCH { return false }
            if rc == PCRE2_ERROR_MATCHLIMIT && index < tryContexts.count - 1 { continue }
            throw RegexMatchError(code: rc)
        }
        throw RegexMatchError(code: PCRE2_ERROR_MATCHLIMIT)
    }

    private func run(_ bytes: UnsafeBufferPointer<UInt8>, _ data: OpaquePointer, _ context: OpaquePointer? = nil) -> Int32 {
        let context = context ?? matchContext
        guard let base = bytes.baseAddress else {
            // An empty subject may come without an address; give PCRE2 a real one.
            var empty: UInt8 = 0
            return withUnsafePointer(to: &empty) { search($0, 0, data, context) }
        }
        return search(base, bytes.count, data, context)
    }

    private func search(_ base: UnsafePointer<UInt8>, _ count: Int, _ data: OpaquePointer, _ context: OpaquePointer) -> Int32 {
        let rc = pcre2_match_8(code, base, count, 0, PCRE2_NO_UTF_CHECK, data, context)
        guard rc == PCRE2_ERROR_JIT_STACKLIMIT else { return rc }
        // The interpreter keeps its backtracking state on the heap, bounded by the depth limit.
        return pcre2_match_8(code, base, count, 0, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data, context)
    }
}
