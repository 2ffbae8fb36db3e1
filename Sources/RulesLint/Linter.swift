import RulesCompiler
import RulesSyntax

/// The lint engine: warnings about rules that compile but are probably wrong (see `docs/lints.md`).
///
/// Lints run on the checked rule tree of a file without errors. They understand how the server
/// evaluates rules: `.read`/`.write` grants cascade down and cannot be revoked, `.validate` never
/// runs on a delete, and `root` is the tree before the write.
package enum Linter {
    /// Lints a checked tree: the checks of ``Lints/staticLints``. Suppression comments in `file`
    /// are applied; findings come back in file order.
    ///
    /// `modelled`: the findings of the lints decided on the access model (``ModelLint``, computed
    /// by ``LintRun``); when given, they replace what the static checks of those codes find, and
    /// suppressions apply to them like to any other.
    package static func lint(
        _ tree: RuleNode, file: SourceFile, configuration: LintConfiguration = .default, modelled: [LintFinding]? = nil
    ) -> [LintFinding] {
        var context = LintContext(tree: tree, file: file)
        var findings: [LintFinding] = []
        for lint in Lints.staticLints where modelled == nil || !lint.code.isModelled {
            findings += lint.check(&context)
        }
        // A finding another lint's covers is that lint's (``Lint/subsumedBy``).
        var winners: [LintCode: [SourceRange]] = [:]
        for f in findings { winners[f.code, default: []].append(f.diagnostic.range) }
        let staticCount = findings.count
        var modelled = modelled ?? []
        // A rule that `public-read` or `public-write` reports only with the model is reported by
        // them where no other finding names it: the other says more of the same cause.
        let named = (findings + modelled).filter { !$0.widened }.map(\.diagnostic.range)
        modelled.removeAll { w in
            w.widened && named.contains { w.diagnostic.range.start <= $0.start && $0.end <= w.diagnostic.range.end }
        }
        findings += modelled
        findings = findings.enumerated().filter { i, f in
            !f.code.lint.subsumedBy.contains { p in
                winners[p.winner, default: []].contains { p.covers($0, f, modelled: i >= staticCount) }
            }
        }.map(\.element)
        // One finding per lint and range: two lints' paths to the same fact report it once.
        var seen = Set<Key>()
        findings = findings.filter { seen.insert(Key(code: $0.code, start: $0.diagnostic.range.start, end: $0.diagnostic.range.end)).inserted }
        findings = findings.filter { configuration.enabled.contains($0.code) }
        let (suppressions, unknown) = LintSuppression.scan(file, tree: tree)
        var used = Set<Key>()
        findings = findings.filter { f in
            var hidden = false
            for (i, s) in suppressions.enumerated() where s.hides(f) {
                used.insert(Key(code: f.code, start: Int32(i), end: 0))
                hidden = true
            }
            return !hidden
        }
        var extra = unknown
        for (i, s) in suppressions.enumerated() {
            for code in s.codes.sorted() where code != .unusedSuppression && configuration.enabled.contains(code) {
                guard !used.contains(Key(code: code, start: Int32(i), end: 0)), let range = s.codeRanges[code] else { continue }
                extra.append(UnusedSuppressionLint.finding(s, naming: code, at: range))
            }
        }
        findings += extra.filter { f in
            configuration.enabled.contains(f.code) && !suppressions.contains { $0.hides(f) }
        }
        if !configuration.severities.isEmpty {
            findings = findings.map { f in
                var f = f
                if let severity = configuration.severities[f.code] { f.diagnostic.severity = severity }
                return f
            }
        }
        return findings.sorted {
            ($0.diagnostic.range.start, $0.diagnostic.range.end, $0.code) < ($1.diagnostic.range.start, $1.diagnostic.range.end, $1.code)
        }
    }

    private struct Key: Hashable {
        var code: LintCode
        var start: Int32
        var end: Int32
    }

    /// Lints the result of compiling `file`; nothing when the file has errors or no rule tree.
    package static func lint(_ result: CompilationResult, file: SourceFile, configuration: LintConfiguration = .default) -> [LintFinding] {
        guard let tree = result.tree, !result.diagnostics.containsErrors else { return [] }
        return lint(tree, file: file, configuration: configuration)
    }
}
