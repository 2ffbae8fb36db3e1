import RulesSyntax

/// A parsed rule expression with the checker's findings: the static type and resolution of every
/// node, indexed by ``Expression/id``.
package struct CheckedExpression: Sendable {
    /// The root of the syntax tree.
    package let root: Expression
    /// Where the expression text came from, for mapping ranges to the file.
    package let source: ExpressionSource
    /// The static type of each node, by node id.
    package let types: [StaticType]
    /// The resolution of identifiers, members, indexes and calls, by node id.
    package let resolutions: [Resolution?]
    /// The compiled pattern of each `matches()` argument, by the regex literal's node id.
    package let regexes: [Int: CompiledRegex]

    /// Creates a checked expression.
    package init(
        root: Expression, source: ExpressionSource, types: [StaticType], resolutions: [Resolution?],
        regexes: [Int: CompiledRegex]
    ) {
        self.root = root
        self.source = source
        self.types = types
        self.resolutions = resolutions
        self.regexes = regexes
    }

    /// The same checked tree for another occurrence of its text in the file.
    func moved(to source: ExpressionSource) -> CheckedExpression {
        CheckedExpression(root: root, source: source, types: types, resolutions: resolutions, regexes: regexes)
    }

    /// The static type of a node.
    package func type(of e: Expression) -> StaticType { e.id < types.count ? types[e.id] : .invalid }

    /// The resolution of a node.
    package func resolution(of e: Expression) -> Resolution? { e.id < resolutions.count ? resolutions[e.id] : nil }

    /// The file range of a node.
    package func fileRange(of e: Expression) -> SourceRange { source.fileRange(e.range) }

    /// The source text of a sub-expression, as written.
    package func text(of e: Expression) -> String {
        let bytes = Array(source.text.utf8)
        let s = max(0, min(Int(e.range.start), bytes.count))
        let t = max(s, min(Int(e.range.end), bytes.count))
        return String(decoding: bytes[s..<t], as: UTF8.self)
    }
}
