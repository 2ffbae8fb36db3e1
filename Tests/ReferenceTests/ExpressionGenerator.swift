import RulesTestSupport

/// Generates well-typed rule expressions following Grammar/expression.ebnf and the static rules
/// of spec §3.2: every `&&`/`||` operand and the whole rule are Boolean, ordering operands are
/// numbers, strings or dynamic, arithmetic operands are numbers or dynamic, string methods take
/// string arguments, `matches` a regex literal, `hasChildren` an array literal.
struct ExpressionGenerator {
    /// Whether `newData` may appear (not in `.read`).
    var allowNewData: Bool
    /// The `$vars` in scope, with their `$`.
    var variables: [String]

    static let keys = ["a", "b", "c", "1", "é"]
    static let strings = ["''", "'a'", "'b'", "'ab'", "'abc'", "'B'", "'a.b'", "'1'", "'é'", "'x😀'", "'ß'", "'ｱ'", "'A'"]
    static let numbers = ["0", "1", "2", "3", "0.5", "2.5", "10", "0.1", "1e21", "1e-7", "123456789012", "9007199254740993"]
    static let regexes: [(String, String)] = [
        ("^a", ""), ("b$", ""), ("^[a-c]+$", ""), ("a.b", ""), ("\\d", ""), ("^\\d+$", ""), ("^(a|b)c?$", ""),
        ("[A-Z]", ""), ("^.{2,3}$", ""), ("^a", "i"), ("B", "i"), ("^[^a]*$", ""), ("\\.", ""), ("^$", ""),
        ("^É", "i"), ("ß", "i"), ("^x.$", ""), ("a*?b", ""), ("[\\w-.]", ""),
    ]
    static let claims = ["admin", "n", "s", "org", "missing"]

    func bool(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        if depth <= 0 {
            switch g.below(5) {
            case 0:
                if g.chance(0.1) { return .prop(.atom("query", .dyn), "orderByKey", .bool) }
                return .atom(g.chance(0.5) ? "true" : "false", .bool)
            case 1: return .binary(g.pick(["==", "!="]), .atom("auth", .dyn), .atom("null", .null), .bool)
            case 2 where g.chance(0.2): return .atom(g.pick(["data['exists']()", "root[\"hasChildren\"]()", "newData['isString']()"].filter { allowNewData || !$0.hasPrefix("newData") }), .bool)
        default: return .call(snapshot(&g, 0), g.pick(["exists", "isNumber", "isString", "isBoolean", "hasChildren"]), [], .bool)
            }
        }
        let d = depth - 1
        switch g.below(14) {
        case 0: return .call(snapshot(&g, d), g.pick(["exists", "isNumber", "isString", "isBoolean", "hasChildren"]), [], .bool)
        case 1: return .call(snapshot(&g, d), "hasChild", [childArgument(&g, d)], .bool)
        case 2: return .call(snapshot(&g, d), "hasChildren", [.array((0..<g.below(3)).map { _ in .atom(RefInput.quote(g.pick(Self.keys + ["a/b"])).replacingOccurrences(of: "\"", with: "'"), .str) })], .bool)
        case 3, 4:
            let types: [GType] = [.bool, .num, .str, .dyn, .dyn, .null]
            let l = g.pick(types)
            let r = l == .null ? g.pick([GType.dyn, .num]) : (g.chance(0.6) ? l : g.pick(types))
            // A ternary whose branches differ in type is a valid operand here (spec §3.2).
            let left = g.chance(0.1) ? .cond(bool(&g, d), value(g.pick(types), &g, d), value(g.pick(types), &g, d), .dyn) : value(l, &g, d)
            return .binary(g.pick(["==", "!=", "===", "!=="]), left, value(r, &g, d), .bool)
        case 5, 6:
            let pair = g.pick([(GType.num, GType.num), (.str, .str), (.dyn, .num), (.num, .dyn), (.dyn, .str), (.dyn, .dyn)])
            return .binary(g.pick(["<", "<=", ">", ">="]), value(pair.0, &g, d), value(pair.1, &g, d), .bool)
        case 7: return .unary("!", bool(&g, d), .bool)
        case 8, 9: return .chain(g.pick(["&&", "||"]), (0..<(2 + g.below(2))).map { _ in bool(&g, d) })
        case 10: return .cond(bool(&g, d), bool(&g, d), bool(&g, d), .bool)
        case 11, 12: return .call(stringish(&g, d), g.pick(["contains", "beginsWith", "endsWith"]), [stringish(&g, d)], .bool)
        default:
            let (p, f) = g.pick(Self.regexes)
            return .call(stringish(&g, d), "matches", [.regex(p, f)], .bool)
        }
    }

    func value(_ t: GType, _ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        switch t {
        case .bool: bool(&g, depth)
        case .num: number(&g, depth)
        case .str: string(&g, depth)
        case .dyn: dynamic(&g, depth)
        case .snap: snapshot(&g, depth)
        case .null: .atom("null", .null)
        }
    }

    func number(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        if depth <= 0 || g.chance(0.3) {
            if g.chance(0.05) { return .prop(.atom("query", .dyn), "limitToFirst", .num) }
            return .atom(g.chance(0.1) ? "now" : g.pick(Self.numbers), .num)
        }
        let d = depth - 1
        switch g.below(5) {
        case 0, 1:
            let op = g.pick(["+", "-", "*", "/", "%"])
            // `+` of a dynamic operand may be a string, so only numbers take part in a numeric `+`.
            let l = op == "+" ? number(&g, d) : numeric(&g, d)
            let r = op == "+" ? number(&g, d) : numeric(&g, d)
            return .binary(op, l, r, .num)
        case 2: return .unary("-", numeric(&g, d), .num)
        case 3: return .prop(stringish(&g, d), "length", .num)
        default: return .cond(bool(&g, d), number(&g, d), number(&g, d), .num)
        }
    }

    /// A number or a dynamic value (an arithmetic operand).
    func numeric(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        g.chance(0.4) ? dynamic(&g, depth) : number(&g, depth)
    }

    /// A string or a dynamic value (a string-method receiver or argument).
    func stringish(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        g.chance(0.4) ? dynamic(&g, depth) : string(&g, depth)
    }

    func string(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        if depth <= 0 || g.chance(0.3) {
            if !variables.isEmpty && g.chance(0.3) { return .atom(g.pick(variables), .str) }
            return .atom(g.pick(Self.strings), .str)
        }
        let d = depth - 1
        switch g.below(5) {
        case 0: return .binary("+", string(&g, d), g.chance(0.5) ? string(&g, d) : number(&g, d), .str)
        case 1: return .binary("+", number(&g, d), string(&g, d), .str)
        case 2: return .call(stringish(&g, d), g.pick(["toLowerCase", "toUpperCase"]), [], .str)
        case 3: return .call(stringish(&g, d), "replace", [stringish(&g, d), stringish(&g, d)], .str)
        default: return .cond(bool(&g, d), string(&g, d), string(&g, d), .str)
        }
    }

    func dynamic(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        switch g.below(8) {
        case 0, 1, 2: return .call(snapshot(&g, depth - 1), "val", [], .dyn)
        case 3: return .call(snapshot(&g, depth - 1), "getPriority", [], .dyn)
        case 4: return .prop(.atom("auth", .dyn), g.pick(["uid", "provider"]), .dyn)
        case 5: return .prop(.prop(.atom("auth", .dyn), "token", .dyn), g.pick(Self.claims), .dyn)
        case 6:
            if g.chance(0.5) {
                var forms = ["auth.token['s']", "auth['token']['n']", "auth.token['org']['tier']", "auth.foo[auth.uid]"]
                if let v = variables.first { forms.append("auth.token[\(v)]") }
                return .atom(g.pick(forms), .dyn)
            }
            return .prop(.prop(.prop(.atom("auth", .dyn), "token", .dyn), "org", .dyn), g.pick(["tier", "name"]), .dyn)
        // Only the bounds are dynamic; `orderByKey` is Boolean and `limitToFirst` a number (§4.3).
        default: return .prop(.atom("query", .dyn), g.pick(["startAt", "endAt", "equalTo"]), .dyn)
        }
    }

    func childArgument(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        switch g.below(6) {
        case 0: return .atom("'a/b'", .str)
        case 1 where !variables.isEmpty: return .atom(g.pick(variables), .str)
        case 2: return .prop(.atom("auth", .dyn), "uid", .dyn)
        case 3 where depth > 0: return stringish(&g, depth - 1)
        default: return .atom("'" + g.pick(Self.keys) + "'", .str)
        }
    }

    func snapshot(_ g: inout SplitMix64, _ depth: Int) -> GenExpr {
        var roots = ["data", "data", "root"]
        if allowNewData { roots += ["newData", "newData"] }
        var s: GenExpr = .atom(g.pick(roots), .snap)
        let steps = depth <= 0 ? g.below(2) : g.below(4)
        for _ in 0..<steps {
            if g.chance(0.35) {
                s = .call(s, "parent", [], .snap)
            } else {
                s = .call(s, "child", [childArgument(&g, max(depth - 1, 0))], .snap)
            }
        }
        return s
    }
}
