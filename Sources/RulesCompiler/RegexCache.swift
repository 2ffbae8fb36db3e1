/// The outcome of validating and compiling each distinct regular expression literal of one
/// rules file, so that a pattern written many times (an e-mail or key format checked in several
/// places) is validated and compiled by PCRE2 once. Compiled patterns are read-only and may be
/// shared by every rule that uses them.
final class RegexCache {
    /// What became of one pattern with its flags.
    enum Outcome {
        /// The pattern or flags are outside the Firebase subset.
        case issues([RegexIssue])
        /// PCRE2 refused the translated pattern.
        case failed(RegexCompileError)
        /// Compiled.
        case compiled(CompiledRegex)
    }

    /// Patterns are compared by their bytes, as PCRE2 reads them.
    private struct Key: Hashable {
        var pattern: ExactText
        var flags: ExactText
    }

    private var outcomes: [Key: Outcome] = [:]

    /// The outcome for `pattern` with `flags`, computed on first use.
    func outcome(pattern: String, flags: String) -> Outcome {
        let key = Key(pattern: ExactText(pattern), flags: ExactText(flags))
        if let known = outcomes[key] { return known }
        let outcome: Outcome
        let issues = RegexSubset.validate(pattern: pattern, flags: flags)
        if !issues.isEmpty {
            outcome = .issues(issues)
        } else {
            do {
                outcome = .compiled(
                    try CompiledRegex(
                        firebasePattern: pattern, caseInsensitive: flags.contains("i"), matchLimit: 1_000_000,
                        depthLimit: 100_000))
            } catch {
                outcome = .failed(error)
            }
        }
        outcomes[key] = outcome
        return outcome
    }
}
