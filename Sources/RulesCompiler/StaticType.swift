/// The static type the checker gives each sub-expression (spec §3.1).
package enum StaticType: Sendable, Hashable, CustomStringConvertible {
    case boolean
    case number
    case string
    case null
    /// A `RuleDataSnapshot`: `root`, `data`, `newData`, `child()`, `parent()`.
    case snapshot
    /// The `query` variable.
    case query
    /// A primitive known only at runtime: `val()`, `getPriority()`, `query.startAt`/`endAt`/`equalTo`.
    /// Member access treats it as a string.
    case dynamicPrimitive
    /// `auth` and anything reached from it: any property is allowed; calls are checked as string methods.
    case dynamicMap
    /// A regular expression literal (only as the argument of `matches()`).
    case regex
    /// An array literal (only as the argument of `hasChildren()`).
    case array
    /// A method not yet called, e.g. `data.exists` before `()`.
    case method(Method)
    /// The type of an expression that already has an error (suppresses follow-on errors).
    case invalid

    /// True for `dynamicPrimitive` and `dynamicMap`.
    package var isDynamic: Bool {
        switch self {
        case .dynamicPrimitive, .dynamicMap: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .boolean: "boolean"
        case .number: "number"
        case .string: "string"
        case .null: "null"
        case .snapshot: "snapshot"
        case .query: "query"
        case .dynamicPrimitive: "dynamic value"
        case .dynamicMap: "auth value"
        case .regex: "regular expression"
        case .array: "array"
        case .method(let m): "method \(m.name)()"
        case .invalid: "invalid"
        }
    }
}
