/// The static type a generated expression is built to have (spec §3.1).
enum GType: Equatable {
    case bool, num, str, dyn, snap, null
}

/// A generated expression: its own small tree, so that it can be printed with minimal or full
/// parentheses and shrunk node by node.
indirect enum GenExpr {
    case atom(String, GType)
    case unary(String, GenExpr, GType)
    case binary(String, GenExpr, GenExpr, GType)
    case chain(String, [GenExpr])
    case cond(GenExpr, GenExpr, GenExpr, GType)
    case call(GenExpr, String, [GenExpr], GType)
    case prop(GenExpr, String, GType)
    case array([GenExpr])
    case regex(String, String)

    var type: GType {
        switch self {
        case .atom(_, let t), .unary(_, _, let t), .binary(_, _, _, let t), .cond(_, _, _, let t),
             .call(_, _, _, let t), .prop(_, _, let t): t
        case .chain: .bool
        case .array, .regex: .null
        }
    }

    /// Binding strength, loosest first (spec §2).
    var precedence: Int {
        switch self {
        case .cond: 1
        case .chain(let op, _): op == "||" ? 2 : 3
        case .binary(let op, _, _, _):
            switch op {
            case "==", "!=", "===", "!==": 4
            case "<", "<=", ">", ">=": 5
            case "+", "-": 6
            default: 7
            }
        case .unary: 8
        case .call, .prop: 9
        case .atom(let text, _): text.hasPrefix("-") ? 8 : 10
        case .array, .regex: 10
        }
    }

    /// The expression text; `full` puts parentheses around every compound operand.
    func render(full: Bool = false) -> String {
        func wrap(_ e: GenExpr, _ minimum: Int) -> String {
            let text = e.render(full: full)
            let compound: Bool
            if case .atom = e { compound = false } else if case .regex = e { compound = false } else if case .array = e { compound = false } else { compound = true }
            return (e.precedence < minimum || (full && compound && e.precedence < 9)) ? "(" + text + ")" : text
        }
        switch self {
        case .atom(let text, _): return text
        case .regex(let pattern, let flags): return "/" + pattern + "/" + flags
        case .array(let items): return "[" + items.map { $0.render(full: full) }.joined(separator: ", ") + "]"
        case .unary(let op, let operand, _):
            let inner = wrap(operand, 8)
            return op + (inner.hasPrefix("-") || inner.hasPrefix("!") && op == "-" ? " " : "") + inner
        case .binary(let op, let l, let r, _):
            return wrap(l, precedence) + " " + op + " " + wrap(r, precedence + 1)
        case .chain(let op, let items):
            return items.map { wrap($0, precedence + 1) }.joined(separator: " " + op + " ")
        case .cond(let c, let t, let f, _):
            return wrap(c, 2) + " ? " + wrap(t, 1) + " : " + wrap(f, 1)
        case .call(let receiver, let name, let args, _):
            return wrap(receiver, 9) + "." + name + "(" + args.map { $0.render(full: full) }.joined(separator: ", ") + ")"
        case .prop(let receiver, let name, _):
            return wrap(receiver, 9) + "." + name
        }
    }

    /// The children, for shrinking.
    var children: [GenExpr] {
        switch self {
        case .atom, .regex: []
        case .array(let items): items
        case .unary(_, let e, _): [e]
        case .binary(_, let l, let r, _): [l, r]
        case .chain(_, let items): items
        case .cond(let c, let t, let f, _): [c, t, f]
        case .call(let r, _, let args, _): [r] + args
        case .prop(let r, _, _): [r]
        }
    }

    /// The same node with new children (same count and order as ``children``).
    func with(children new: [GenExpr]) -> GenExpr {
        switch self {
        case .atom, .regex: self
        case .array: .array(new)
        case .unary(let op, _, let t): .unary(op, new[0], t)
        case .binary(let op, _, _, let t): .binary(op, new[0], new[1], t)
        case .chain(let op, _): .chain(op, new)
        case .cond(_, _, _, let t): .cond(new[0], new[1], new[2], t)
        case .call(_, let name, _, let t): .call(new[0], name, Array(new.dropFirst()), t)
        case .prop(_, let name, let t): .prop(new[0], name, t)
        }
    }

    /// A few smaller expressions of the same type (the shrinker's steps).
    func smaller() -> [GenExpr] {
        var out: [GenExpr] = []
        if case .atom = self {} else {
            switch type {
            case .bool: out += [.atom("true", .bool), .atom("false", .bool)]
            case .num: out += [.atom("0", .num), .atom("1", .num)]
            case .str: out += [.atom("''", .str), .atom("'a'", .str)]
            case .dyn: out += [.call(.atom("data", .snap), "val", [], .dyn)]
            case .snap: out += [.atom("data", .snap)]
            case .null: break
            }
        }
        if case .chain(let op, let items) = self, items.count > 2 {
            for i in items.indices {
                var fewer = items
                fewer.remove(at: i)
                out.append(.chain(op, fewer))
            }
        }
        let kids = children
        for kid in kids where kid.type == type && type != .null { out.append(kid) }
        for (i, kid) in kids.enumerated() {
            for s in kid.smaller() {
                var copy = kids
                copy[i] = s
                out.append(with(children: copy))
            }
        }
        return out
    }
}
