import RulesSyntax

/// Small JSON output primitives shared by the reporters.
public enum JSONWriter {
    /// A JSON string literal.
    public static func quote(_ s: String) -> String { JSONText.quote(s) }

    /// A JSON number: integers without a fraction, others in Swift's shortest round-trip form;
    /// `null` for values JSON cannot hold (infinities, NaN).
    public static func number(_ d: Double) -> String { JSONText.double(d).rendered() }
}
