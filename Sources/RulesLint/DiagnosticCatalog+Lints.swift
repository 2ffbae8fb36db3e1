import RulesCompiler
import RulesSyntax

extension DiagnosticCatalog {
    /// All codes, grouped by phase, lints last: the compiler's (``compilerEntries``) and the
    /// lints' (``Lints/catalogEntries``). The source of SARIF rule descriptions and of
    /// `docs/diagnostics.md` (a test keeps the two in step).
    package static let all: [Entry] = compilerEntries + Lints.catalogEntries

    /// The entry of a code.
    package static func entry(_ code: DiagnosticCode) -> Entry? { all.first { $0.code == code } }
}
