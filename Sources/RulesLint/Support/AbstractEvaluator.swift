import RulesCompiler
import RulesSyntax

/// Evaluates a checked rule expression over abstract values: which outcomes are possible when
/// the data, the time and (unless `unauthenticated`) `auth` are unknown.
///
/// While it evaluates, it records the expression-level lints it can prove (impossible conditions,
/// type-mismatched comparisons, existence tests in `.validate`), innermost first: once a finding
/// explains a sub-expression, the expressions around it are not reported again.
struct AbstractEvaluator {
    /// A finding inside the expression.
    struct Finding {
        var code: LintCode
        var range: SourceRange
        var message: String
        /// A fact that explains a sub-expression (so no other lint reports it) but is not worth a
        /// warning of its own, e.g. the allow-null idiom `!newData.exists() || ...` in `.validate`.
        var silent = false
    }

    /// Whether a sub-expression being true is what lets the rule pass (`positive`), what stops it
    /// (`negative`, under one `!`), or neither for sure (`neutral`: a `?:` condition, an operand).
    enum Polarity {
        case positive, negative, neutral

        var flipped: Polarity {
            switch self {
            case .positive: .negative
            case .negative: .positive
            case .neutral: .neutral
            }
        }
    }

    let checked: CheckedExpression
    let kind: RuleKind
    /// The depth of the rule's location (0 for `/`).
    let depth: Int
    /// Evaluate with `auth == null`.
    let unauthenticated: Bool
    /// For each `$wildcard` in scope, the keys its literal siblings take (it never binds those).
    let excludedKeys: [String: Set<String>]
    /// Whether to record findings.
    let records: Bool
    private(set) var findings: [Finding] = []
    /// The polarity of the sub-expression being evaluated.
    private var polarity: Polarity = .positive

    init(
        _ checked: CheckedExpression, kind: RuleKind, depth: Int, unauthenticated: Bool = false,
        excludedKeys: [String: Set<String>] = [:], records: Bool = true
    ) {
        self.checked = checked
        self.kind = kind
        self.depth = depth
        self.unauthenticated = unauthenticated
        self.excludedKeys = excludedKeys
        self.records = records
    }

    /// Evaluates the whole expression.
    mutating func evaluateRoot() -> AbstractValue { evaluate(checked.root) }

    // MARK: - Expressions

    mutating func evaluate(_ e: Expression) -> AbstractValue {
        let saved = polarity
        defer { polarity = saved }
        switch e.kind {
        case .number(let n): return AbstractValue(shape: .constant(.number(n)), mayError: false)
        case .string(let s): return AbstractValue(shape: .constant(.string(s)), mayError: false)
        case .boolean(let b): return .bool(b)
        case .null: return AbstractValue(shape: .constant(.null), mayError: false)
        case .regex, .array: return AbstractValue(shape: .other, mayError: false)
        case .identifier: return identifier(e)
        case .member(let object, let name, _):
            polarity = .neutral
            return member(object, name: name, resolution: checked.resolution(of: e))
        case .index(let object, let index):
            polarity = .neutral
            if case .string(let name) = index.kind, checked.resolution(of: e) != .dynamicIndex {
                return member(object, name: name, resolution: checked.resolution(of: e))
            }
            let o = evaluate(object)
            let i = evaluate(index)
            guard o.shape != nil, i.shape != nil else { return .failure }
            if case .constant(.null)? = o.shape { return AbstractValue(shape: .constant(.null), mayError: o.mayError || i.mayError) }
            return .unknown(.any, mayError: o.mayError || i.mayError)
        case .call(let callee, let arguments):
            return call(e, callee, arguments)
        case .unary(.not, let x):
            let before = findings.count
            polarity = saved.flipped
            let v = evaluate(x)
            reportIfNeverTrue(x, v, since: before)
            guard v.shape != nil else { return .failure }
            let o = v.outcomes
            return AbstractValue(shape: .boolean(canTrue: o.canFalse, canFalse: o.canTrue), mayError: o.mayError)
        case .unary(.negate, let x):
            polarity = .neutral
            let v = evaluate(x)
            guard v.shape != nil else { return .failure }
            if case .number(let n)? = v.constant { return AbstractValue(shape: .constant(.number(-n)), mayError: false) }
            if !v.types.contains(.number) { return .failure }
            return .unknown(.number, mayError: v.mayError || v.types != .number)
        case .binary(let op, let l, let r, _):
            return binary(e, op, l, r)
        case .logical(let op, let operands):
            return logical(e, op, operands)
        case .conditional(let c, let a, let b):
            let before = findings.count
            polarity = .neutral
            let cv = evaluate(c)
            polarity = saved
            reportIfNeverTrue(c, cv, since: before)
            let av = evaluate(a)
            let bv = evaluate(b)
            let co = cv.outcomes
            guard cv.shape != nil else { return .failure }
            let chosen: [AbstractValue] = (co.canTrue ? [av] : []) + (co.canFalse ? [bv] : [])
            return join(chosen, mayError: co.mayError)
        }
    }

    private func join(_ values: [AbstractValue], mayError: Bool) -> AbstractValue {
        let live = values.filter { $0.shape != nil }
        let err = mayError || values.contains { $0.mayError }
        guard let first = live.first else { return .failure }
        if live.count == 1 { return AbstractValue(shape: first.shape, mayError: err) }
        let outcomes = live.map(\.outcomes)
        if live.allSatisfy({ if case .boolean? = $0.shape { true } else { false } }) {
            return AbstractValue(
                shape: .boolean(canTrue: outcomes.contains { $0.canTrue }, canFalse: outcomes.contains { $0.canFalse }), mayError: err)
        }
        return .unknown(live.reduce(into: AbstractValue.Types()) { $0.formUnion($1.types) }, mayError: err)
    }

    private mutating func identifier(_ e: Expression) -> AbstractValue {
        switch checked.resolution(of: e) {
        case .auth?:
            return unauthenticated ? AbstractValue(shape: .constant(.null), mayError: false) : .unknown([.object, .null])
        case .root?: return snapshot("root", depth: 0)
        case .data?: return snapshot("data", depth: depth)
        case .newData?: return snapshot("newData", depth: depth)
        case .now?: return .unknown(.number)
        case .query?: return AbstractValue(shape: .other, mayError: false)
        case .wildcard(let name, _)?: return AbstractValue(shape: .wildcard(name), mayError: false)
        default: return .unknown(.any, mayError: true)
        }
    }

    private func snapshot(_ base: String, depth: Int) -> AbstractValue {
        AbstractValue(shape: .snapshot(.init(base: base, segments: [], depth: depth)), mayError: false)
    }

    private mutating func member(_ object: Expression, name: String, resolution: Resolution?) -> AbstractValue {
        let o = evaluate(object)
        guard o.shape != nil else { return .failure }
        switch resolution {
        case .stringLength?:
            if case .string(let s)? = o.constant { return AbstractValue(shape: .constant(.number(Double(s.utf16.count))), mayError: false) }
            guard o.types.contains(.string) else { return .failure }
            return .unknown(.number, mayError: o.mayError || o.types != .string)
        case .dynamicProperty?:
            if case .null? = o.constant { return AbstractValue(shape: .constant(.null), mayError: o.mayError) }
            // auth.uid and auth.provider are strings whenever auth is not null.
            if case .identifier = object.kind, name == "uid" || name == "provider" {
                return .unknown([.string, .null], mayError: o.mayError)
            }
            return .unknown(.any, mayError: o.mayError)
        case .queryField(let f)?:
            switch f {
            case .orderByKey, .orderByPriority, .orderByValue: return .unknownBool(mayError: false)
            case .orderByChild: return .unknown([.string, .null])
            case .limitToFirst, .limitToLast: return .unknown([.number, .null])
            case .startAt, .endAt, .equalTo: return .unknown([.string, .number, .boolean, .null])
            }
        default:
            return AbstractValue(shape: .other, mayError: o.mayError)
        }
    }

    private mutating func call(_ e: Expression, _ callee: Expression, _ arguments: [Expression]) -> AbstractValue {
        guard case .call(let m)? = checked.resolution(of: e), let recv = callee.receiver else {
            return .unknown(.any, mayError: true)
        }
        let own = polarity
        polarity = .neutral
        let r = evaluate(recv)
        let args = arguments.map { evaluate($0) }
        guard r.shape != nil, args.allSatisfy({ $0.shape != nil }) else { return .failure }
        // String arguments (regex and array literals are checked statically).
        let argumentsMayFail = args.contains { a in
            if case .other? = a.shape { return false }
            return a.mayError || a.types != .string
        }
        var err = r.mayError || argumentsMayFail
        if m.isSnapshotMethod {
            guard case .snapshot(var s)? = r.shape else { return .unknown(.any, mayError: true) }
            switch m {
            case .child:
                let added = args.first.flatMap(pathSegments)
                s.segments = added.flatMap { a in s.segments.map { $0 + a } }
                s.depth = added.flatMap { a in s.depth.map { $0 + a.count } }
                return AbstractValue(shape: .snapshot(s), mayError: err)
            case .parent:
                if s.depth == 0 { return .failure }
                if s.depth == nil { err = true }
                s.depth = s.depth.map { $0 - 1 }
                if var segs = s.segments {
                    if let last = segs.last, last != ".." { segs.removeLast() } else { segs.append("..") }
                    s.segments = segs
                }
                return AbstractValue(shape: .snapshot(s), mayError: err)
            case .val:
                return AbstractValue(shape: .value(s), mayError: err)
            case .getPriority:
                return .unknown([.string, .number, .null], mayError: err)
            case .exists:
                if isNewDataHere(s) {
                    // Required to be true, it is meant to stop deletes and does not; tested the
                    // other way (`!newData.exists() || ...`) it only allows null: a dead branch.
                    record(.deleteGuardInValidate, e,
                        ".validate never runs when the new value is null, so newData.exists() is always true here and does not stop deletes; test it in .write.",
                        silent: own != .positive)
                    return .bool(true)
                }
                return .unknownBool(mayError: err)
            default:
                return .unknownBool(mayError: err)
            }
        }
        // String methods: the receiver must be a string at runtime.
        if case .null? = r.constant { return .failure }
        guard r.types.contains(.string) else { return .failure }
        err = err || r.types != .string
        return m.resultType == .string ? .unknown(.string, mayError: err) : .unknownBool(mayError: err)
    }

    /// `newData` of the rule's own location in a `.validate`, where it is never null.
    private func isNewDataHere(_ s: AbstractValue.Snapshot) -> Bool {
        kind == .validate && s.base == "newData" && s.segments == []
    }

    /// The keys a `child()` argument adds, when known.
    private func pathSegments(_ a: AbstractValue) -> [String]? {
        switch a.shape {
        case .constant(.string(let s))?: s.split(separator: "/").map(String.init)
        case .wildcard(let name)?: [name]
        default: nil
        }
    }

    // MARK: - Operators

    private mutating func binary(_ e: Expression, _ op: BinaryOperator, _ l: Expression, _ r: Expression) -> AbstractValue {
        let own = polarity
        // `x == true` keeps x's polarity and `x == false` flips it; any other operand is neutral.
        func operandPolarity(_ other: Expression) -> Polarity {
            guard op.isEquality, case .boolean(let b) = other.kind else { return .neutral }
            let keeps = (op == .equal || op == .strictEqual) == b
            return keeps ? own : own.flipped
        }
        polarity = operandPolarity(r)
        let lv = evaluate(l)
        polarity = operandPolarity(l)
        let rv = evaluate(r)
        polarity = own
        guard lv.shape != nil, rv.shape != nil else { return .failure }
        let err = lv.mayError || rv.mayError
        if op.isEquality {
            guard let equal = equality(e, l, r, lv, rv) else { return .unknownBool(mayError: err) }
            let result = (op == .equal || op == .strictEqual) ? equal : !equal
            return AbstractValue(shape: .boolean(canTrue: result, canFalse: !result), mayError: err)
        }
        let lt = lv.types, rt = rv.types
        if op.isRelational {
            if case .number(let a)? = lv.constant, case .number(let b)? = rv.constant {
                let v: Bool
                switch op {
                case .less: v = a < b
                case .lessOrEqual: v = a <= b
                case .greater: v = a > b
                default: v = a >= b
                }
                return AbstractValue(shape: .boolean(canTrue: v, canFalse: !v), mayError: err)
            }
            let shared = lt.intersection(rt).intersection([.number, .string])
            if shared.isEmpty { return .failure }
            let safe = (lt == .number && rt == .number) || (lt == .string && rt == .string)
            return .unknownBool(mayError: err || !safe)
        }
        if op == .add {
            switch (lv.constant, rv.constant) {
            case (.number(let a)?, .number(let b)?): return AbstractValue(shape: .constant(.number(a + b)), mayError: false)
            case (.string(let a)?, .string(let b)?): return AbstractValue(shape: .constant(.string(a + b)), mayError: false)
            default: break
            }
            let ok: AbstractValue.Types = [.number, .string]
            if lt.intersection(ok).isEmpty || rt.intersection(ok).isEmpty { return .failure }
            let result: AbstractValue.Types = (lt == .number && rt == .number) ? .number : (lt == .string || rt == .string) ? .string : ok
            return .unknown(result, mayError: err || !ok.isSuperset(of: lt) || !ok.isSuperset(of: rt))
        }
        // - * / %
        if !lt.contains(.number) || !rt.contains(.number) { return .failure }
        return .unknown(.number, mayError: err || lt != .number || rt != .number)
    }

    /// Whether two values are equal, when that is known; records why when it is known for a
    /// reason worth a lint.
    private mutating func equality(_ e: Expression, _ l: Expression, _ r: Expression, _ lv: AbstractValue, _ rv: AbstractValue) -> Bool? {
        if let a = lv.constant, let b = rv.constant { return ConstantFolder.equal(a, b) }
        for (x, y) in [(lv, rv), (rv, lv)] {
            // A wildcard never binds a key that a literal sibling takes.
            if case .wildcard(let name)? = x.shape, case .string(let key)? = y.constant, excludedKeys[name]?.contains(key) == true {
                record(.impossibleCondition, e,
                    "\(name) is never '\(key)' here: the literal sibling '\(key)' takes that key, and its rules apply instead of the wildcard's.")
                return false
            }
            // newData.val() is never null in .validate.
            if case .value(let s)? = x.shape, isNewDataHere(s), case .null? = y.constant {
                // `newData.val() != null` required true relies on it to stop deletes; `... ||
                // newData.val() == null` is the allow-null idiom, at most a dead branch.
                let requiresValue = isEqualityTrueOnMatch(e) ? polarity == .negative : polarity == .positive
                record(.deleteGuardInValidate, e,
                    ".validate never runs when the new value is null, so newData.val() is never null here and this does not stop deletes; test it in .write.",
                    silent: !requiresValue)
                return false
            }
        }
        let lt = lv.types, rt = rv.types
        if !lt.isEmpty, !rt.isEmpty, lt.isDisjoint(with: rt) {
            record(.typeMismatchComparison, e,
                "'\(text(l))' is always \(lt.phrase) and '\(text(r))' is always \(rt.phrase); == never converts types, so this comparison is always \(isEqualityTrueOnMatch(e) ? "false" : "true").")
            return false
        }
        return nil
    }

    private func isEqualityTrueOnMatch(_ e: Expression) -> Bool {
        if case .binary(let op, _, _, _) = e.kind { return op == .equal || op == .strictEqual }
        return true
    }

    private mutating func logical(_ e: Expression, _ op: LogicalOperator, _ operands: [Expression]) -> AbstractValue {
        let before = findings.count
        // `reach`: evaluation can get past the operands seen so far without deciding the result.
        var reach = true
        var decided = false, mayError = false
        for o in operands {
            let start = findings.count
            let v = evaluate(o)
            reportIfNeverTrue(o, v, since: start)
            guard reach else { continue }
            let out = v.outcomes
            mayError = mayError || out.mayError
            if op == .and {
                decided = decided || out.canFalse
                reach = out.canTrue
            } else {
                decided = decided || out.canTrue
                reach = out.canFalse
            }
        }
        var canTrue = op == .and ? reach : decided
        let canFalse = op == .and ? decided : reach
        if op == .and, canTrue, let conflict = ConditionFacts.contradiction(in: e, checked: checked) {
            if findings.count == before {
                record(.impossibleCondition, e, "This condition can never be true: \(conflict).")
            }
            canTrue = false
        }
        if !canTrue && !canFalse { return .failure }
        return AbstractValue(shape: .boolean(canTrue: canTrue, canFalse: canFalse), mayError: mayError)
    }

    // MARK: - Findings

    /// Reports an operand that can never be true, unless a finding inside it already explains
    /// that, or it is the literal `false` (written on purpose).
    private mutating func reportIfNeverTrue(_ e: Expression, _ v: AbstractValue, since count: Int) {
        guard records, findings.count == count, v.isNeverTrue else { return }
        if case .boolean = e.kind { return }
        let message = v.shape == nil
            ? "This condition always fails with a runtime error, so it is never true."
            : "This condition is never true."
        record(.impossibleCondition, e, message)
    }

    private mutating func record(_ code: LintCode, _ e: Expression, _ message: String, silent: Bool = false) {
        guard records else { return }
        findings.append(Finding(code: code, range: checked.fileRange(of: e), message: message, silent: silent))
    }

    /// The source text of a sub-expression.
    func text(_ e: Expression) -> String { checked.text(of: e) }
}
