import DatabaseRules

/// Random rules files built from fuzz bytes, whose expressions chain the string operations
/// (`+`, `replace`, `toUpperCase`, `toLowerCase`, `contains`, `beginsWith`, `endsWith`,
/// `matches`, `length`) over client data, `auth` and literals, short and long, empty included:
/// what a hostile or careless rules file can make the engine compute.
public enum FuzzStringRules {
    /// Strings the expressions start from (the last ones are long).
    public static let literals = ["''", "'a'", "'aaaaaaaaaa'", "'é€😀'", "'/'", "'" + String(repeating: "x", count: 1000) + "'"]
    /// What a `.read` at the root may use (no `newData`, no wildcard).
    public static let readSources = ["data.val()", "auth.uid", "root.child('s').val()"] + literals
    /// What a `.write` or `.validate` under `$k` may use.
    public static let writeSources = ["newData.val()", "data.val()", "auth.uid", "$k", "root.child('s').val()"] + literals

    /// A string-valued expression, `depth` operations deep at most, over `sources`.
    public static func stringExpression(_ d: inout FuzzDecoder, depth: Int, sources: [String] = writeSources) -> String {
        if depth == 0 || d.below(4) == 0 { return d.pick(sources) }
        let inner = stringExpression(&d, depth: depth - 1, sources: sources)
        switch d.below(6) {
        case 0: return "(" + inner + " + " + stringExpression(&d, depth: depth - 1, sources: sources) + ")"
        case 1: return inner + ".replace(" + d.pick(literals) + ", " + stringExpression(&d, depth: depth - 1, sources: sources) + ")"
        case 2: return inner + ".toUpperCase()"
        case 3: return inner + ".toLowerCase()"
        case 4: return "(" + inner + " + " + d.pick(["1", "0.5", "-0", "1e21"]) + ")"
        default: return inner + ".replace('', " + d.pick(literals) + ")"
        }
    }

    /// A boolean expression over string operations.
    public static func booleanExpression(_ d: inout FuzzDecoder, sources: [String] = writeSources) -> String {
        let s = stringExpression(&d, depth: 8, sources: sources)
        switch d.below(6) {
        case 0: return s + ".length > " + d.pick(["0", "10", "100000"])
        case 1: return s + ".contains(" + d.pick(literals) + ")"
        case 2: return s + ".beginsWith(" + stringExpression(&d, depth: 2, sources: sources) + ")"
        case 3: return s + ".endsWith(" + d.pick(literals) + ")"
        case 4: return s + ".matches(/^a*(b|c)?$/i)"
        default: return s + " === " + stringExpression(&d, depth: 2, sources: sources)
        }
    }

    /// A rules file with string rules at `/` and under a wildcard, as JSON text.
    public static func rulesFile(_ d: inout FuzzDecoder) -> String {
        let read = DataText.jsonQuoted(booleanExpression(&d, sources: readSources))
        let write = DataText.jsonQuoted(booleanExpression(&d))
        let validate = DataText.jsonQuoted(booleanExpression(&d))
        return #"{"rules": {".read": \#(read), "$k": {".write": \#(write), ".validate": \#(validate)}}}"#
    }
}
