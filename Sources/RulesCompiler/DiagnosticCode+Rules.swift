import RulesSyntax

extension DiagnosticCode {
    // The file's size (docs/limits.md).
    /// A rules file larger than ``RulesFileLimits/documentedBytes``.
    public static let rulesFileLarge: DiagnosticCode = "rules-file-large"
    /// A rules file larger than ``RulesFileLimits/maxBytes``; it is not read.
    public static let rulesFileTooLarge: DiagnosticCode = "rules-file-too-large"
    // The rules document (spec §1).
    /// The document has no `rules` property.
    public static let rulesMissing: DiagnosticCode = "rules-missing"
    /// A top-level key other than `rules`.
    public static let topLevelKey: DiagnosticCode = "top-level-key"
    /// A child or the document is not an object (`Expected '{'.`).
    public static let expectedObject: DiagnosticCode = "expected-object"
    /// A rule value that is neither true, false nor a string.
    public static let invalidRuleValue: DiagnosticCode = "invalid-rule-value"
    /// A bad `.indexOn`.
    public static let invalidIndexOn: DiagnosticCode = "invalid-index-on"
    /// A key with a forbidden character, or an unknown `.key`.
    public static let invalidKey: DiagnosticCode = "invalid-key"
    /// Two `$wildcards` in one node.
    public static let multipleWildcards: DiagnosticCode = "multiple-wildcards"
    /// A wildcard whose name is not an identifier (it cannot be referenced).
    public static let wildcardName: DiagnosticCode = "wildcard-name"
    /// A wildcard that reuses the name of an enclosing wildcard.
    public static let wildcardShadowed: DiagnosticCode = "wildcard-shadowed"

    // Expressions (spec §3, §4).
    /// A name that is not a variable here.
    public static let unknownVariable: DiagnosticCode = "unknown-variable"
    /// `newData` in a `.read` rule.
    public static let newDataInRead: DiagnosticCode = "newdata-in-read"
    /// A member that the receiver does not have.
    public static let noSuchMember: DiagnosticCode = "no-such-member"
    /// A call of something that is not a method.
    public static let notAFunction: DiagnosticCode = "not-a-function"
    /// An operand of the wrong static type.
    public static let invalidOperand: DiagnosticCode = "invalid-operand"
    /// A rule, or an operand that must be boolean, that is not.
    public static let notBoolean: DiagnosticCode = "not-boolean"
    /// A call with the wrong number of arguments.
    public static let argumentCount: DiagnosticCode = "argument-count"
    /// A call argument of the wrong static type.
    public static let argumentType: DiagnosticCode = "argument-type"
    /// An array or regular expression literal where it cannot stand.
    public static let misplacedLiteral: DiagnosticCode = "misplaced-literal"
    /// A computed index into a snapshot, string or query.
    public static let invalidIndex: DiagnosticCode = "invalid-index"
}
