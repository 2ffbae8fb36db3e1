/// The stable identifier of a check, e.g. `unknown-variable`.
///
/// Codes appear in every output format (`[code]` in text, `ruleId` in SARIF), are documented in
/// `docs/diagnostics.md`, and never change once published. Each phase declares its own codes in
/// an extension.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func < (a: DiagnosticCode, b: DiagnosticCode) -> Bool { a.rawValue < b.rawValue }
}
