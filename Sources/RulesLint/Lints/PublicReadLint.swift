import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `public-read`: see ``PublicReadLint``.
    public static let publicRead = LintCode(declaring: "public-read")
}

/// `public-read`: a `.read` that is true when auth is null, at the root, at depth 1 or over a
/// `$wildcard` collection (``CascadeAnalysis/publicGrants``).
enum PublicReadLint: ModelWidenedLint {
    static let code = LintCode.publicRead
    static let category = LintCategory.security
    static let securitySeverity: Double? = 7.5
    static let summary = "A .read that lets anyone, signed in or not, read a large subtree."
    static let help =
        "The rule is true when auth is null, at the root, at depth 1 or over a $wildcard collection. Grants cascade and cannot be taken back below, so everything under it is public. Require auth != null or narrow the location."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.publicGrants.filter { $0.kind == .read }.map { $0.finding(code) }
    }

    static func widen(_ context: inout ThreatContext) -> [LintFinding] {
        PublicCells.findings(&context, reads: true)
    }
}
