/// The three kinds of rule.
public enum RuleKind: String, Sendable, Hashable, CaseIterable {
    case read = ".read"
    case write = ".write"
    case validate = ".validate"

    /// The key as written in the rules file.
    public var key: String { rawValue }
}
