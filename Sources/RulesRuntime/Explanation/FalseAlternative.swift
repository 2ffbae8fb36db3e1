/// One alternative of the `||` that made a rule false, as an explanation shows it: the part of
/// the alternative that was false (followed down `&&` and `?:` as for the rule itself), its
/// value and what made it so.
public struct FalseAlternative: Sendable, Hashable {
    /// The source text of the alternative's deciding part (one line).
    public var part: String
    /// Its value: `false`, or what a non-boolean came to.
    public var value: String
    /// What made it false in a few words (`9 === 6`, `missing 'body'`); nil when nothing to add.
    public var detail: String?

    /// Creates an alternative.
    public init(part: String, value: String, detail: String?) {
        self.part = part
        self.value = value
        self.detail = detail
    }

    /// `part was value: detail`, the part cut to `width` characters.
    public func rendered(partWidth width: Int = .max) -> String {
        var out = ExplanationFormat.clip(part, width) + " was " + value
        if let detail { out += ": " + detail }
        return out
    }
}
