import RulesSyntax

/// The regular expression subset that the Realtime Database server accepts in `matches(/…/)`,
/// and its translation to PCRE2.
///
/// Accepted (spec §6.2):
/// - literal characters, `.`, the class escapes `\d \w \s \D \W \S`;
/// - `\` before any other character makes it literal: `\{`, `\.`, `\/`, `\\`, `\$`, and identity
///   escapes of letters such as `\a` (a literal `a`, as in JavaScript). `\n \t \r \f \v` mean the
///   control characters, as in JavaScript;
/// - classes `[abc]`, `[a-z]`, `[^0-9]`, with escapes inside (`[\w.-]`). A class escape next to a
///   dash makes the dash literal (`[\w-.]`, JavaScript Annex B);
/// - quantifiers `* + ?`, `{n}`, `{n,}`, `{n,m}` (bounds up to 65535) and their lazy forms (`*?`);
/// - groups `( )` and alternation `|`;
/// - `^` only as the first character of the pattern and `$` only as the last. A pattern made of
///   anchors alone (`^$`) is accepted and matches the empty string.
/// - A `{` that does not begin a well-formed `{n}`, `{n,}` or `{n,m}`, and any `}` outside a
///   quantifier, are literal characters (JavaScript Annex B; this is what makes `\{foo}` work).
///
/// Rejected, with the first problem reported (messages in the server's lowercase voice):
/// - flags other than one `i` (``DiagnosticCode/regexFlags``);
/// - `^`/`$` elsewhere (``DiagnosticCode/regexAnchor``);
/// - empty alternatives `(foo|)`, `|a`, `a|`, `()` (``DiagnosticCode/regexEmptyAlternative``);
/// - `(?…)` groups, back-references `\1`…`\9`, `\0`, `\b`, `\B`, `\u`, `\x`, `\p`, `\P`, `\k`,
///   `\c`, and the empty classes `[]`/`[^]` (``DiagnosticCode/regexUnsupported``);
/// - unbalanced `(`/`)` or `[`, a lone `]`, nothing to repeat (`*a`, `a**`, `a*+`), bad `{}`
///   bounds, ranges out of order, a trailing `\`, and the empty pattern
///   (``DiagnosticCode/regexSyntax``).
///
/// The translation keeps JavaScript meaning under PCRE2's UTF mode without UCP: `.` becomes a
/// class excluding JavaScript's four line terminators, `\s`/`\S` gain the Unicode separators and
/// the BOM that JavaScript counts as white space, `\v` becomes `\x{0b}`, and literal `{`, `}`, `[`
/// (inside classes) and inner dashes are escaped. Everything else is copied unchanged.
package enum RegexSubset {
    /// The message for any flag other than `i`, as the server words it.
    package static let unsupportedFlagsMessage = "regular expressions do not support flags other than i"
    /// The message for a repeated `i` flag.
    package static let repeatedFlagMessage = "regular expressions do not support repeated flags"

    /// Issues in the literal `/pattern/flags` (empty = accepted).
    ///
    /// At most one issue comes from the pattern (the first problem, since later ones are often
    /// consequences). Flag issues follow it: one covering every unsupported flag, and one for
    /// each repeated `i`.
    package static func validate(pattern: String, flags: String) -> [RegexIssue] {
        var issues: [RegexIssue] = []
        var parser = RegexSubsetParser(pattern)
        do {
            try parser.parse()
        } catch {
            issues.append(error.issue)
        }
        issues += flagIssues(flags)
        return issues
    }

    /// The PCRE2 pattern text for an accepted Firebase pattern.
    ///
    /// For a pattern that ``validate(pattern:flags:)`` rejects, the text is returned unchanged so
    /// that PCRE2 reports its own error (or accepts its own reading of it).
    package static func pcre2Pattern(for pattern: String) -> String {
        var parser = RegexSubsetParser(pattern)
        do {
            try parser.parse()
            return parser.output
        } catch {
            return pattern
        }
    }

    /// Maps a UTF-8 offset in ``pcre2Pattern(for:)``'s result back to the Firebase pattern.
    static func sourceOffset(forPCRE2Offset offset: Int, in pattern: String) -> Int {
        var parser = RegexSubsetParser(pattern)
        guard (try? parser.parse()) != nil else { return min(max(0, offset), pattern.utf8.count) }
        if offset >= parser.output.utf8.count { return pattern.utf8.count }
        var source = 0
        for entry in parser.offsetMap {
            if entry.output > offset { break }
            source = entry.source
        }
        return source
    }

    private static func flagIssues(_ flags: String) -> [RegexIssue] {
        var issues: [RegexIssue] = []
        var unsupported: SourceRange?
        var sawI = false
        var offset = 0
        for scalar in flags.unicodeScalars {
            let range = SourceRange(offset, offset + UTF8.width(scalar))
            offset = Int(range.end)
            if scalar == "i" {
                if sawI {
                    issues.append(RegexIssue(message: repeatedFlagMessage, range: range, isInFlags: true,
                                             code: .regexFlags))
                }
                sawI = true
            } else {
                unsupported = unsupported.map { $0.union(range) } ?? range
            }
        }
        if let unsupported {
            issues.insert(RegexIssue(message: unsupportedFlagsMessage, range: unsupported, isInFlags: true,
                                     code: .regexFlags), at: 0)
        }
        return issues
    }
}
