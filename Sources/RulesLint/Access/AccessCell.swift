import RulesCompiler
import RulesSyntax

/// One cell of the access model: what a principal may do at a location, with the proof.
package struct AccessCell: Sendable {
    /// The answer of the bounded search.
    package enum Verdict: Sendable {
        /// The engine allowed the witness (its last step is the operation).
        case allowed(LintWitness)
        /// The engine allowed the witness only after the principal gave itself a privilege with
        /// writes the rules allow (the witness's earlier steps): an escalation.
        case escalated(LintWitness, Privilege)
        /// No request is allowed: none within the solver's bounds (``AccessModel/solved``), or
        /// none of the candidates the search tried.
        case never
        /// Neither a witness nor a proof: why (the solver ran out of time, or found requests
        /// the engine denied).
        case unknown(String)

        package var witness: LintWitness? {
            switch self {
            case .allowed(let w), .escalated(let w, _): w
            case .never, .unknown: nil
            }
        }

        package var isAllowed: Bool { witness != nil }
    }

    package var location: AccessLocation
    package var principal: AccessPrincipal
    package var operation: AccessOperation
    package var verdict: Verdict
    /// The rule that allowed the last step (nil when never allowed).
    package var decidedBy: RuleReference?
}

/// A rule of the tree: its location, kind and the range of its value.
package struct RuleReference: Hashable, Sendable {
    package var node: RuleNode
    package var kind: RuleKind

    package static func == (a: RuleReference, b: RuleReference) -> Bool { a.node === b.node && a.kind == b.kind }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(node))
        hasher.combine(kind)
    }

    package var rule: Rule? { node.rule(kind) }
    /// `the .write at /users/$uid`.
    package var description: String { "the \(kind.key) at \(node.pathDescription)" }
    /// The range of the rule's expression (of its value when it is a constant; its key when
    /// there is no rule).
    package var range: SourceRange {
        guard let rule else { return node.keyRange }
        if case .expression(let c) = rule.body { return c.fileRange(of: c.root) }
        return rule.valueRange
    }
    /// The rule's text, as written.
    package var text: String {
        guard let rule else { return "" }
        switch rule.body {
        case .constant(let b): return b ? "true" : "false"
        case .expression(let c): return c.source.text
        case .invalid: return ""
        }
    }
}
