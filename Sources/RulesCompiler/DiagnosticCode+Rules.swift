import RulesSyntax

extension DiagnosticCode {
    // The file's size (docs/limits.md).
    /// A rules file larger than ``RulesFileLimits/documentedBytes``.
    package static let rulesFileLarge: DiagnosticCode = "rules-file-large"
    /// A rules file larger than ``RulesFileLimits/maxBytes``; it is not read.
    package static let rulesFileTooLarge: DiagnosticCode = "rules-file-too-large"
    // The rules document (spec §1).
    /// The document has no `rules` property.
    package static let rulesMissing: DiagnosticCode = "rules-missing"
    /// A top-level key other than `rules`.
    package static let topLevelKey: DiagnosticCode = "top-level-key"
    /// A child or the document is not an object (`Expected '{'.`).
    package static let expectedObject: DiagnosticCode = "expected-object"
    /// A rule value that is neither true, false nor a string.
    package static let invalidRuleValue: DiagnosticCode = "invalid-rule-value"
    /// A bad `.indexOn`.
    package static let invalidIndexOn: DiagnosticCode = "invalid-index-on"
    /// A key with a forbidden character, or an unknown `.key`.
    package static let invalidKey: DiagnosticCode = "invalid-key"
    /// Two `$wildcards` in one node.
    package static let multipleWildcards: DiagnosticCode = "multiple-wildcards"
    /// A wildcard whose name is not an identifier (it cannot be referenced).
    package static let wildcardName: DiagnosticCode = "wildcard-name"
    /// A wildcard that reuses the name of an enclosing wildcard.
    package static let wildcardShadowed: DiagnosticCode = "wildcard-shadowed"

    // Expressions (spec §3, §4).
    /// A name that is not a variable here.
    package static let unknownVariable: DiagnosticCode = "unknown-variable"
    /// `newData` in a `.read` rule.
    package static let newDataInRead: DiagnosticCode = "newdata-in-read"
    /// A member that the receiver does not have.
    package static let noSuchMember: DiagnosticCode = "no-such-member"
    /// A call of something that is not a method.
    package static let notAFunction: DiagnosticCode = "not-a-function"
    /// An operand of the wrong static type.
    package static let invalidOperand: DiagnosticCode = "invalid-operand"
    /// A rule, or an operand that must be boolean, that is not.
    package static let notBoolean: DiagnosticCode = "not-boolean"
    /// A call with the wrong number of arguments.
    package static let argumentCount: DiagnosticCode = "argument-count"
    /// A call argument of the wrong static type.
    package static let argumentType: DiagnosticCode = "argument-type"
    /// An array or regular expression literal where it cannot stand.
    package static let misplacedLiteral: DiagnosticCode = "misplaced-literal"
    /// A computed index into a snapshot, string or query.
    package static let invalidIndex: DiagnosticCode = "invalid-index"
}
