import RulesCompiler
import RulesSyntax

/// Encodes one rule expression as a Z3 condition, with the engine's semantics: values are
/// `null`, booleans, numbers (as reals), strings or the object sentinel; equality is strict; an
/// error anywhere the evaluation reaches fails the rule (`||`, `!` and `?:` do not absorb it, the
/// short circuit skips it). What it cannot express is a fresh unknown, never a narrower
/// condition, unless the world is in ``SolverMode/find``.
struct ExpressionEncoder {
    /// What an expression denotes while it is encoded.
    indirect enum Symbol {
        case value(Term)
        case snapshot(SymbolicWorld.Tree, [Term])
        case auth
        case authPath([String])
        case query
        case regex(pattern: String, flags: String)
        case array([Expression])
        case method(Symbol, Method)
    }

    let world: SymbolicWorld
    let scope: QuestionScope
    let checked: CheckedExpression
    /// The path of the rule's location.
    let location: [Term]
    /// Conditions under which the evaluation reaches an error.
    private var errors: [Term] = []
    /// What the `find` encoding assumes where it is narrower than the rules (a string already in
    /// lower case, a number joined to text being an integer): part of the rule's condition, so
    /// that it narrows only where the rule matters.
    private var narrowings: [Term] = []
    /// Set when part of the expression was left free (the answer may be wider than the rules).
    private(set) var approximated = false

    private var smt: SMT { world.smt }

    init(world: SymbolicWorld, scope: QuestionScope, checked: CheckedExpression, location: [Term]) {
        self.world = world
        self.scope = scope
        self.checked = checked
        self.location = location
    }

    /// The condition that the rule is true: evaluated without error to the boolean true.
    mutating func holds() -> Term {
        let v = value(encode(checked.root, guarded: smt.true), guarded: smt.true)
        return smt.and([smt.not(smt.or(errors)), smt.isBool(v), smt.boolOf(v)] + narrowings)
    }

    private mutating func narrow(_ guarded: Term, _ condition: Term) {
        narrowings.append(smt.implies(guarded, condition))
    }

    // MARK: - Errors and free values

    private mutating func error(_ guarded: Term, _ condition: Term) {
        errors.append(smt.and(guarded, condition))
    }

    private mutating func freeValue() -> Term {
        approximated = true
        return smt.variable("free", smt.valueSort)
    }

    private mutating func freeString() -> Term {
        approximated = true
        return smt.variable("freeStr", smt.stringSort)
    }

    // MARK: - Expressions

    private mutating func encode(_ e: Expression, guarded g: Term) -> Symbol {
        switch e.kind {
        case .number(let d): return .value(smt.vnum(smt.real(d)))
        case .string(let s): return .value(smt.vstr(smt.string(s)))
        case .boolean(let b): return .value(smt.vbool(smt.bool(b)))
        case .null: return .value(smt.null)
        case .regex(let p, let f): return .regex(pattern: p, flags: f)
        case .array(let items): return .array(items)
        case .identifier(let name): return identifier(name, e)
        case .member(let object, let name, _): return member(object, name, e, guarded: g)
        case .index(let object, let key): return index(object, key, guarded: g)
        case .call(let callee, let arguments): return call(callee, arguments, e, guarded: g)
        case .unary(let op, let x): return unary(op, x, guarded: g)
        case .binary(let op, let l, let r, _): return binary(op, l, r, guarded: g)
        case .logical(let op, let items): return logical(op, items, guarded: g)
        case .conditional(let c, let a, let b):
            let cv = boolean(encode(c, guarded: g), guarded: g)
            let av = value(encode(a, guarded: smt.and(g, cv)), guarded: smt.and(g, cv))
            let bv = value(encode(b, guarded: smt.and(g, smt.not(cv))), guarded: smt.and(g, smt.not(cv)))
            return .value(smt.ite(cv, av, bv))
        }
    }

    private mutating func identifier(_ name: String, _ e: Expression) -> Symbol {
        switch checked.resolution(of: e) {
        case .auth?: return .auth
        case .root?: return .snapshot(.before, [])
        case .data?: return .snapshot(.before, location)
        case .newData?: return .snapshot(.after, location)
        case .now?: return .value(smt.vnum(scope.now))
        case .query?: return .query
        case .wildcard(let n, _)?:
            guard let key = scope.keys[n] else { return .value(freeValue()) }
            return .value(smt.vstr(key))
        default: return .value(freeValue())
        }
    }

    private mutating func member(_ object: Expression, _ name: String, _ e: Expression, guarded g: Term) -> Symbol {
        let base = encode(object, guarded: g)
        switch checked.resolution(of: e) {
        case .method(let m)?: return .method(base, m)
        case .queryField(let f)?: return .value(scope.query(f))
        case .stringLength?:
            let v = value(base, guarded: g)
            error(g, smt.not(smt.isStr(v)))
            return .value(smt.vnum(smt.length(smt.strOf(v))))
        case .dynamicProperty(let n)?:
            switch base {
            case .auth: return .authPath([n])
            case .authPath(let p):
                if n == "length" {
                    let v = scope.auth(p, world)
                    error(g, smt.isNull(v))
                    return .value(smt.ite(smt.isStr(v), smt.vnum(smt.length(smt.strOf(v))), freeValue()))
                }
                return .authPath(p + [n])
            default:
                return .value(freeValue())
            }
        default:
            return .value(freeValue())
        }
    }

    private mutating func index(_ object: Expression, _ key: Expression, guarded g: Term) -> Symbol {
        _ = encode(object, guarded: g)
        _ = encode(key, guarded: g)
        return .value(freeValue())
    }

    /// The value a symbol denotes (a snapshot, `auth` or `query` used as a value is left free).
    private mutating func value(_ s: Symbol, guarded g: Term) -> Term {
        switch s {
        case .value(let v): return v
        case .authPath(let p): return scope.auth(p, world)
        case .auth: return smt.ite(scope.signedIn, smt.obj, smt.null)
        default: return freeValue()
        }
    }

    /// A boolean operand: an error unless the value is a boolean.
    private mutating func boolean(_ s: Symbol, guarded g: Term) -> Term {
        let v = value(s, guarded: g)
        error(g, smt.not(smt.isBool(v)))
        return smt.and(smt.isBool(v), smt.boolOf(v))
    }

    /// A string argument: an error unless the value is a string.
    private mutating func stringArgument(_ e: Expression, guarded g: Term) -> Term {
        let v = value(encode(e, guarded: g), guarded: g)
        error(g, smt.not(smt.isStr(v)))
        return smt.strOf(v)
    }

    // MARK: - Calls

    private mutating func call(_ callee: Expression, _ arguments: [Expression], _ e: Expression, guarded g: Term) -> Symbol {
        guard case .method(let receiver, let m) = encode(callee, guarded: g) else { return .value(freeValue()) }
        if m.isSnapshotMethod {
            guard case .snapshot(let tree, let path) = receiver else { return .value(freeValue()) }
            return snapshotCall(m, tree, path, arguments, guarded: g)
        }
        let r = value(receiver, guarded: g)
        error(g, smt.not(smt.isStr(r)))
        let s = smt.strOf(r)
        switch m {
        case .contains: return .value(smt.vbool(smt.contains(s, stringArgument(arguments[0], guarded: g))))
        case .beginsWith: return .value(smt.vbool(smt.prefix(stringArgument(arguments[0], guarded: g), of: s)))
        case .endsWith: return .value(smt.vbool(smt.suffix(stringArgument(arguments[0], guarded: g), of: s)))
        case .replace:
            let a = stringArgument(arguments[0], guarded: g)
            let b = stringArgument(arguments[1], guarded: g)
            if world.mode == .find { return .value(smt.vstr(smt.replaceFirst(s, a, b))) }
            return .value(smt.vstr(freeString()))
        case .toLowerCase, .toUpperCase:
            if world.mode == .find {
                // The string already in that case maps to itself.
                let other = m == .toLowerCase ? smt.reRange(0x41, 0x5A) : smt.reRange(0x61, 0x7A)
                narrow(g, smt.not(smt.inRegex(s, smt.reConcat([smt.reAll, other, smt.reAll]))))
                return .value(smt.vstr(s))
            }
            return .value(smt.vstr(freeString()))
        case .matches:
            guard case .regex(let p, let f) = encode(arguments[0], guarded: g), let re = RegexEncoder.encode(p, flags: f, smt: smt) else {
                return .value(smt.vbool(smt.boolOf(freeValue())))
            }
            return .value(smt.vbool(smt.inRegex(s, re)))
        default:
            return .value(freeValue())
        }
    }

    private mutating func snapshotCall(_ m: Method, _ tree: SymbolicWorld.Tree, _ path: [Term], _ arguments: [Expression], guarded g: Term) -> Symbol {
        func at(_ p: [Term]) -> Term { world.value(tree, world.join(p)) }
        switch m {
        case .child: return .snapshot(tree, path + childPath(arguments[0], guarded: g))
        case .parent:
            guard !path.isEmpty else {
                error(g, smt.true)
                return .snapshot(tree, [])
            }
            return .snapshot(tree, Array(path.dropLast()))
        case .val: return .value(at(path))
        case .exists: return .value(smt.vbool(smt.not(smt.isNull(at(path)))))
        case .hasChild: return .value(smt.vbool(smt.not(smt.isNull(at(path + childPath(arguments[0], guarded: g))))))
        case .hasChildren:
            guard let list = arguments.first else { return .value(smt.vbool(smt.isObj(at(path)))) }
            guard case .array(let items) = encode(list, guarded: g) else { return .value(smt.vbool(smt.boolOf(freeValue()))) }
            var all: [Term] = []
            for item in items { all.append(smt.not(smt.isNull(at(path + childPath(item, guarded: g))))) }
            return .value(smt.vbool(smt.and(all)))
        case .isNumber: return .value(smt.vbool(smt.isNum(at(path))))
        case .isString: return .value(smt.vbool(smt.isStr(at(path))))
        case .isBoolean: return .value(smt.vbool(smt.isBool(at(path))))
        case .getPriority:
            let p = world.priority(tree, world.join(path))
            if world.mode == .find { narrow(g, smt.isNull(p)) }
            return .value(p)
        default: return .value(freeValue())
        }
    }

    /// The keys of a `child()` argument: a literal's keys split at `/`, a computed string as
    /// one key (in `find` mode without `/`).
    private mutating func childPath(_ e: Expression, guarded g: Term) -> [Term] {
        if case .string(let s) = e.kind {
            return s.split(separator: "/", omittingEmptySubsequences: false).map { smt.string(String($0)) }
        }
        let s = stringArgument(e, guarded: g)
        if world.mode == .find { narrow(g, smt.inRegex(s, smt.reWithout("/"))) } else if !isKey(e) { world.mayHoldSlash.insert(s) }
        return [s]
    }

    /// A `$wildcard` or `auth.uid`: a key, which holds no `/`.
    private func isKey(_ e: Expression) -> Bool {
        if case .wildcard? = checked.resolution(of: e) { return true }
        if case .member(let o, "uid", _) = e.kind, checked.resolution(of: o) == .auth { return true }
        return false
    }

    // MARK: - Operators

    private mutating func unary(_ op: UnaryOperator, _ x: Expression, guarded g: Term) -> Symbol {
        switch op {
        case .not: return .value(smt.vbool(smt.not(boolean(encode(x, guarded: g), guarded: g))))
        case .negate:
            let v = value(encode(x, guarded: g), guarded: g)
            error(g, smt.not(smt.isNum(v)))
            return .value(smt.vnum(smt.neg(smt.numOf(v))))
        }
    }

    private mutating func logical(_ op: LogicalOperator, _ items: [Expression], guarded g: Term) -> Symbol {
        var reached = g
        var results: [Term] = []
        for item in items {
            let b = boolean(encode(item, guarded: reached), guarded: reached)
            results.append(b)
            reached = smt.and(reached, op == .and ? b : smt.not(b))
        }
        return .value(smt.vbool(op == .and ? smt.and(results) : smt.or(results)))
    }

    private mutating func binary(_ op: BinaryOperator, _ l: Expression, _ r: Expression, guarded g: Term) -> Symbol {
        let a = value(encode(l, guarded: g), guarded: g)
        let b = value(encode(r, guarded: g), guarded: g)
        let nums = smt.and(smt.isNum(a), smt.isNum(b))
        let strs = smt.and(smt.isStr(a), smt.isStr(b))
        switch op {
        case .equal, .strictEqual, .notEqual, .strictNotEqual:
            var same = smt.eq(a, b)
            if world.mode == .prove {
                // Two object sentinels: their comparison is not settled.
                same = smt.ite(smt.and(smt.isObj(a), smt.isObj(b)), smt.boolOf(freeValue()), same)
            }
            return .value(smt.vbool(op == .equal || op == .strictEqual ? same : smt.not(same)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            error(g, smt.not(smt.or(nums, strs)))
            let (x, y) = op == .less || op == .lessOrEqual ? (a, b) : (b, a)
            let strict = op == .less || op == .greater
            let n = strict ? smt.lt(smt.numOf(x), smt.numOf(y)) : smt.le(smt.numOf(x), smt.numOf(y))
            let s = strict ? smt.strLT(smt.strOf(x), smt.strOf(y)) : smt.strLE(smt.strOf(x), smt.strOf(y))
            return .value(smt.vbool(smt.ite(nums, n, s)))
        case .add:
            let strNum = smt.and(smt.isStr(a), smt.isNum(b))
            let numStr = smt.and(smt.isNum(a), smt.isStr(b))
            error(g, smt.not(smt.or(nums, strs, strNum, numStr)))
            let left = textOf(a, guarded: g)
            let right = textOf(b, guarded: g)
            return .value(smt.ite(nums, smt.vnum(smt.add(smt.numOf(a), smt.numOf(b))), smt.vstr(smt.concat([left, right]))))
        case .subtract, .multiply, .divide, .remainder:
            error(g, smt.not(nums))
            let (x, y) = (smt.numOf(a), smt.numOf(b))
            switch op {
            case .subtract: return .value(smt.vnum(smt.sub(x, y)))
            case .multiply: return .value(smt.vnum(smt.mul(x, y)))
            case .divide:
                // x / 0 is NaN, which reals do not hold: left free.
                return .value(smt.ite(smt.eq(y, smt.real(0)), freeValue(), smt.vnum(smt.div(x, y))))
            default:
                return .value(smt.vnum(smt.numOf(freeValue())))
            }
        }
    }

    /// A string operand of `+` as text: itself, or a number's decimal text (exact in `find` mode
    /// for integers, free otherwise).
    private mutating func textOf(_ v: Term, guarded g: Term) -> Term {
        if smt.literal(smt.isStr(v)) == true { return smt.strOf(v) }
        let free = freeString()
        if world.mode == .find {
            let n = smt.numOf(v)
            let text = smt.ite(smt.le(smt.real(0), n), smt.decimal(n), smt.concat([smt.string("-"), smt.decimal(smt.neg(n))]))
            narrow(g, smt.implies(smt.isNum(v), smt.and(smt.isInt(n), smt.eq(free, text))))
        }
        return smt.ite(smt.isStr(v), smt.strOf(v), free)
    }
}
