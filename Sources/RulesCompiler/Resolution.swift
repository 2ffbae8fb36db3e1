import RulesSyntax

/// What the checker decided a name, member or call refers to. The bytecode compiler lowers each
/// kind to its own instructions.
package enum Resolution: Sendable, Hashable {
    /// `auth`.
    case auth
    /// `root`.
    case root
    /// `data`.
    case data
    /// `newData`.
    case newData
    /// `now`.
    case now
    /// `query`.
    case query
    /// `$name`: the key bound by the wildcard at `slot` (0 = the outermost wildcard on the path).
    case wildcard(name: String, slot: Int)
    /// A snapshot or string method, not yet called.
    case method(Method)
    /// `.length` of a string or dynamic primitive.
    case stringLength
    /// A property of an `auth` value, looked up at runtime (`length` on a string included).
    case dynamicProperty(String)
    /// A computed index into an `auth` value.
    case dynamicIndex
    /// A field of `query`.
    case queryField(QueryField)
    /// A call of the method given by its callee's resolution.
    case call(Method)
}
