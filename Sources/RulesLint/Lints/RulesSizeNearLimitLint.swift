import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `rules-size-near-limit`: see ``RulesSizeNearLimitLint``.
    public static let rulesSizeNearLimit = LintCode(declaring: "rules-size-near-limit")
}

/// `rules-size-near-limit`: a rules file from 90% of the documented 256 KiB limit up to it (above
/// it the compiler's own `rules-file-large` warning applies instead).
enum RulesSizeNearLimitLint: StaticLint {
    static let code = LintCode.rulesSizeNearLimit
    static let category = LintCategory.maintainability
    static let summary = "The rules file is close to the server's size limit."
    static let help =
        "The documented limit for a rules file is 256 KiB; this lint fires from 90% of it (235,930 bytes). Factor repeated expressions or move data-specific rules out before a deploy fails."

    /// The documented size limit of a rules file, in bytes (256 KiB).
    static let sizeLimit = RulesFileLimits.documentedBytes
    /// The lint fires from this size: 90% of ``sizeLimit``.
    static let threshold = sizeLimit * 9 / 10

    static func check(_ context: inout LintContext) -> [LintFinding] {
        let size = context.file.bytes.count
        guard size >= threshold, size <= sizeLimit else { return [] }
        let percent = size * 100 / sizeLimit
        return [LintFinding(
            code: code,
            message: "The file is \(size) bytes, \(percent)% of the server's 256 KiB (\(sizeLimit)-byte) limit for rules.",
            range: SourceRange.at(0), anchor: "/")]
    }
}
