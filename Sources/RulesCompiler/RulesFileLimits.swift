import RulesSyntax

/// How large a rules file may be (see `docs/limits.md`).
///
/// Firebase documents 256 KB for a rules file, but a dry-run deploy of about 300 KB was accepted
/// (spec §1, "Size limits"), so going over it is a warning. The hard limit is ours: it bounds the
/// memory and time one compilation can take.
package enum RulesFileLimits {
    /// The documented size of a rules file, 256 KB taken as 256 × 1024 bytes: larger files get
    /// the `rules-file-large` warning.
    package static let documentedBytes = 256 * 1024
    /// The largest file compiled at all, 10 MB (10 × 2^20 bytes): larger files get the
    /// `rules-file-too-large` error and are not read.
    package static let maxBytes = 10 * 1024 * 1024

    /// The size diagnostic for a file of `size` bytes, if any.
    static func diagnostic(forSize size: Int) -> Diagnostic? {
        if size > maxBytes {
            return .error(
                .rulesFileTooLarge, "The rules file is too large (\(size) bytes; the limit is \(maxBytes)).", at: .at(0))
        }
        if size > documentedBytes {
            return .warning(
                .rulesFileLarge,
                "The rules file is \(size) bytes, more than the \(documentedBytes) bytes (256 KB) Firebase documents; the server may refuse it.",
                at: .at(0))
        }
        return nil
    }
}
