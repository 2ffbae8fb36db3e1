/// What a lint is about; SARIF tags each lint rule with it.
public enum LintCategory: String, Sendable, Hashable, CaseIterable {
    /// What the rules let someone do that they should not.
    case security
    /// Rules that do not do what they seem to.
    case correctness
    /// Rules that make the server or the clients do more work than needed.
    case performance
    /// The rules file itself: its size, its suppression comments.
    case maintainability
}
