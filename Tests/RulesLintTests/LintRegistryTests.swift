import Testing

@testable import RulesCompiler
@testable import RulesLint
@testable import RulesSyntax

/// The registry is the one list of lints: every code has exactly one type, in the order of the
/// codes, and the catalog comes from it.
@Suite struct LintRegistryTests {
    @Test func everyCodeHasExactlyOneType() {
        #expect(Lints.all.map { $0.code } == LintCode.allCases)
        #expect(Lints.byName.count == LintCode.allCases.count)
        for code in LintCode.allCases {
            #expect(Lints.all.filter { $0.code == code }.count == 1, "\(code)")
            #expect(code.lint.code == code)
        }
    }

    @Test func metadataIsConsistent() {
        for lint in Lints.all {
            // A security lint, and only one, has a SARIF security-severity.
            #expect((lint.category == .security) == (lint.securitySeverity != nil), "\(lint.code)")
            if let s = lint.securitySeverity { #expect((0...10).contains(s), "\(lint.code)") }
            #expect(lint.severity == .warning, "\(lint.code)")
            #expect(!lint.summary.isEmpty && !lint.help.isEmpty, "\(lint.code)")
            // Every lint runs somewhere: a check of its own, or the runner's (suppressions).
            let checked = lint is any StaticLint.Type || lint is any ModelLint.Type
            #expect(checked || [.unusedSuppression, .unknownLintCode].contains(lint.code), "\(lint.code)")
        }
    }

    @Test func theCatalogComesFromTheRegistry() {
        let lintEntries = DiagnosticCatalog.all.filter { LintCode($0.code) != nil }
        #expect(lintEntries.map(\.code.rawValue) == Lints.all.map { $0.code.rawValue })
        for (entry, lint) in zip(lintEntries, Lints.all) {
            #expect(entry.summary == lint.summary)
            #expect(entry.help == lint.help)
            #expect(entry.severity == lint.severity)
        }
        #expect(DiagnosticCatalog.all.count == DiagnosticCatalog.compilerEntries.count + Lints.all.count)
    }

    /// The codes are the names users write (configuration, suppressions, baselines, JSON and
    /// SARIF output): they do not change.
    @Test func codesAreTheWrittenNames() {
        #expect(LintCode.allCases.map(\.rawValue) == [
            "public-read", "public-write", "shadowed-rule", "unreachable-wildcard", "constant-rule", "impossible-condition",
            "type-mismatch-comparison", "delete-guard-in-validate", "unvalidated-write", "root-in-write", "authorization-in-validate",
            "weaker-ancestor-grant", "self-granted-privilege", "ownership-takeover", "record-check-at-collection", "collection-wipe",
            "skipped-check", "per-user-data-readable", "literal-key-beside-wildcard", "query-without-index", "rules-size-near-limit",
            "unknown-lint-code", "unused-suppression",
        ])
        #expect(LintCode(rawValue: "public-reed") == nil)
        #expect(LintCode(rawValue: "public-read") == .publicRead)
    }

    /// Precedence is declared on the lint that yields, to another registered lint; witness
    /// policies follow the categories.
    @Test func precedenceAndWitnessPolicies() {
        var yielding: [LintCode] = []
        var searchedOnly: [LintCode] = []
        for lint in Lints.all {
            let code = lint.code
            let winners = lint.subsumedBy.map(\.winner)
            let policy = lint.witnessPolicy
            let security = lint.securitySeverity != nil
            for winner in winners {
                #expect(LintCode.allCases.contains(winner) && winner != code, "\(code)")
            }
            #expect((policy == .notSearched) == !security, "\(code)")
            if !winners.isEmpty { yielding.append(code) }
            if policy == .searched { searchedOnly.append(code) }
        }
        #expect(yielding == [.ownershipTakeover, .collectionWipe])
        #expect(searchedOnly == [.rootInWrite])
    }

    @Test func modelledCodesAreTheModelLints() {
        #expect(Set(LintCode.allCases.filter(\.isModelled)) == Set(Lints.modelLints.map { $0.code }))
        #expect(Set(LintCode.allCases.filter(\.isModelled)) == [
            .selfGrantedPrivilege, .ownershipTakeover, .authorizationInValidate, .collectionWipe, .skippedCheck, .perUserDataReadable,
        ])
    }
}
