import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `public-write`: see ``PublicWriteLint``.
    public static let publicWrite = LintCode(declaring: "public-write")
}

/// `public-write`: a `.write` that is true when auth is null, at the root, at depth 1 or over a
/// `$wildcard` collection (``CascadeAnalysis/publicGrants``). When nothing below validates what
/// is stored, the finding says so (one finding for one rule) instead of `unvalidated-write`.
enum PublicWriteLint: ModelWidenedLint {
    static let code = LintCode.publicWrite
    static let category = LintCategory.security
    static let securitySeverity: Double? = 9.1
    static let summary = "A .write that lets anyone, signed in or not, write a large subtree."
    static let help =
        "The rule is true when auth is null, at the root, at depth 1 or over a $wildcard collection. Anyone can overwrite or delete everything under it, and no rule below can take the grant back. Require auth != null and an ownership check."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        context.cascade.publicGrants.filter { $0.kind == .write }.map { $0.finding(code) }
    }

    static func widen(_ context: inout ThreatContext) -> [LintFinding] {
        PublicCells.findings(&context, reads: false)
    }
}
