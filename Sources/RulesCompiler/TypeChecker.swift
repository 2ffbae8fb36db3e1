import RulesSyntax

/// Checks one parsed rule expression: names, members, calls, operand types and the boolean result
/// (spec §3–§6). Every error carries the server's text where one is known and the exact file range.
///
/// The checker keeps going after an error, giving the bad sub-expression the type `invalid` so that
/// one mistake produces one message.
package struct TypeChecker {
    /// The kind of rule being checked (`newData` is invalid in `.read`).
    package let kind: RuleKind
    /// The wildcard names in scope, outermost first (the slot of `$x` is its index here).
    package let wildcards: [String]
    /// Where the expression came from.
    package let source: ExpressionSource

    private var types: [StaticType]
    private var resolutions: [Resolution?]
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var regexes: [Int: CompiledRegex] = [:]
    /// Patterns already validated and compiled in this file.
    private let regexCache: RegexCache

    /// Creates a checker for an expression with `nodeCount` nodes.
    package init(kind: RuleKind, wildcards: [String], source: ExpressionSource, nodeCount: Int) {
        self.init(kind: kind, wildcards: wildcards, source: source, nodeCount: nodeCount, regexCache: RegexCache())
    }

    init(kind: RuleKind, wildcards: [String], source: ExpressionSource, nodeCount: Int, regexCache: RegexCache) {
        self.regexCache = regexCache
        self.kind = kind
        self.wildcards = wildcards
        self.source = source
        self.types = Array(repeating: .invalid, count: nodeCount)
        self.resolutions = Array(repeating: nil, count: nodeCount)
    }

    /// Checks a whole rule expression. Returns the checked expression when there are no errors.
    package static func check(
        _ root: Expression, nodeCount: Int, kind: RuleKind, wildcards: [String], source: ExpressionSource
    ) -> (CheckedExpression?, [Diagnostic]) {
        check(root, nodeCount: nodeCount, kind: kind, wildcards: wildcards, source: source, regexCache: RegexCache())
    }

    /// ``check(_:nodeCount:kind:wildcards:source:)`` sharing the patterns compiled for other
    /// expressions of the same file.
    static func check(
        _ root: Expression, nodeCount: Int, kind: RuleKind, wildcards: [String], source: ExpressionSource,
        regexCache: RegexCache
    ) -> (CheckedExpression?, [Diagnostic]) {
        var checker = TypeChecker(
            kind: kind, wildcards: wildcards, source: source, nodeCount: nodeCount, regexCache: regexCache)
        let t = checker.check(root)
        if t != .boolean && t != .invalid {
            checker.error(.notBoolean, "Expression must evaluate to a boolean.", root.range)
        }
        if checker.diagnostics.containsErrors { return (nil, checker.diagnostics) }
        let checked = CheckedExpression(
            root: root, source: source, types: checker.types, resolutions: checker.resolutions,
            regexes: checker.regexes)
        return (checked, checker.diagnostics)
    }

    // MARK: - Expressions

    @discardableResult
    private mutating func check(_ e: Expression) -> StaticType {
        let t = infer(e)
        set(e, t)
        return t
    }

    private mutating func set(_ e: Expression, _ t: StaticType, _ r: Resolution? = nil) {
        if e.id >= 0, e.id < types.count {
            types[e.id] = t
            if let r { resolutions[e.id] = r }
        }
    }

    private mutating func resolve(_ e: Expression, _ r: Resolution) {
        if e.id >= 0, e.id < resolutions.count { resolutions[e.id] = r }
    }

    private mutating func infer(_ e: Expression) -> StaticType {
        switch e.kind {
        case .number: return .number
        case .string: return .string
        case .boolean: return .boolean
        case .null: return .null
        case .regex:
            error(.misplacedLiteral, "Unexpected regular expression literal", e.range)
            return .invalid
        case .array:
            error(.misplacedLiteral, "Unexpected array literal", e.range)
            return .invalid
        case .identifier(let name):
            return identifier(name, e)
        case .member(let object, let name, let nameRange):
            let t = check(object)
            return member(of: t, name: name, range: nameRange, node: e)
        case .index(let object, let index):
            let t = check(object)
            if case .string(let name) = index.kind {
                set(index, .string)
                return member(of: t, name: name, range: index.range, node: e)
            }
            let it = check(index)
            switch t {
            case .invalid:
                return .invalid
            case .dynamicMap:
                if !(it.isDynamic || it == .string || it == .number || it == .invalid) {
                    error(.invalidIndex, "Invalid index: an index into auth must be a string or a number.", index.range)
                    return .invalid
                }
                resolve(e, .dynamicIndex)
                return .dynamicMap
            default:
                if it != .invalid {
                    error(.invalidIndex, "Invalid index: only a string literal may name a method or property here.", index.range)
                }
                return .invalid
            }
        case .call(let callee, let arguments):
            let t = check(callee)
            switch t {
            case .invalid:
                return .invalid
            case .method(let m):
                resolve(e, .call(m))
                return call(m, arguments, e)
            default:
                error(.notAFunction, "Type error: Function call on target that is not a function.", callSite(e))
                return .invalid
            }
        case .unary(.not, let operand):
            let t = check(operand)
            if t != .boolean && t != .invalid {
                error(.notBoolean, "! only operates on booleans.", operand.range)
            }
            return .boolean
        case .unary(.negate, let operand):
            let t = check(operand)
            if !(t == .number || t.isDynamic || t == .invalid) {
                error(.invalidOperand, "Invalid - expression: operand is not a number.", operand.range)
            }
            return .number
        case .binary(let op, let l, let r, _):
            let lt = check(l)
            let rt = check(r)
            return binary(op, lt, rt, l, r)
        case .logical(let op, let operands):
            for (i, o) in operands.enumerated() {
                let t = check(o)
                if t != .boolean && t != .invalid {
                    let side = i == 0 ? "left" : "right"
                    error(.notBoolean, "Invalid \(op.rawValue) expression: \(side) operand is not a boolean.", o.range)
                }
            }
            return .boolean
        case .conditional(let c, let a, let b):
            let ct = check(c)
            if ct != .boolean && ct != .invalid {
                error(.notBoolean, "Invalid ?: expression: condition is not a boolean.", c.range)
            }
            let at = check(a)
            let bt = check(b)
            return join(at, bt, e)
        }
    }

    private mutating func identifier(_ name: String, _ e: Expression) -> StaticType {
        switch name {
        case "auth":
            resolve(e, .auth)
            return .dynamicMap
        case "root":
            resolve(e, .root)
            return .snapshot
        case "data":
            resolve(e, .data)
            return .snapshot
        case "newData":
            if kind == .read {
                error(.newDataInRead, "newData is invalid in .read expressions.", e.range)
                return .invalid
            }
            resolve(e, .newData)
            return .snapshot
        case "now":
            resolve(e, .now)
            return .number
        case "query":
            resolve(e, .query)
            return .query
        default:
            if name.hasPrefix("$"), let slot = wildcards.lastIndex(of: name) {
                resolve(e, .wildcard(name: name, slot: slot))
                return .string
            }
            error(.unknownVariable, "Unknown variable '\(name)'.", e.range)
            return .invalid
        }
    }

    private mutating func member(of t: StaticType, name: String, range: SourceRange, node: Expression) -> StaticType {
        switch t {
        case .invalid:
            return .invalid
        case .snapshot:
            if let m = Method.snapshotMethod(named: name) {
                resolve(node, .method(m))
                return .method(m)
            }
        case .string, .dynamicPrimitive:
            if name == "length" {
                resolve(node, .stringLength)
                return .number
            }
            if let m = Method.stringMethod(named: name) {
                resolve(node, .method(m))
                return .method(m)
            }
        case .dynamicMap:
            if let m = Method.stringMethod(named: name) {
                resolve(node, .method(m))
                return .method(m)
            }
            resolve(node, .dynamicProperty(name))
            return .dynamicMap
        case .query:
            if let f = QueryField(rawValue: name) {
                resolve(node, .queryField(f))
                return f.type
            }
        default:
            break
        }
        error(.noSuchMember, "No such method/property '\(name)'.", range)
        return .invalid
    }

    // MARK: - Calls

    private mutating func call(_ m: Method, _ args: [Expression], _ e: Expression) -> StaticType {
        switch m {
        case .hasChildren:
            if args.count > 1 {
                error(.argumentCount, "hasChildren() expects only a single argument (containing an array of child names).", callSite(e))
                return .boolean
            }
            guard let arg = args.first else { return .boolean }
            guard case .array(let elements) = arg.kind else {
                if case .regex = arg.kind {} else { check(arg) }
                error(.argumentType, "hasChildren() expects an array of child names.", arg.range)
                return .boolean
            }
            set(arg, .array)
            for el in elements {
                let t = stringArgument(el)
                if !(t == .string || t.isDynamic || t == .invalid) {
                    error(.argumentType, "hasChildren() expects an array of strings.", el.range)
                }
            }
            return .boolean
        case .matches:
            guard args.count == 1 else {
                error(.argumentCount, "matches() expects 1 argument.", callSite(e))
                return .boolean
            }
            let arg = args[0]
            guard case .regex(let pattern, let flags) = arg.kind else {
                if case .array = arg.kind {} else { check(arg) }
                error(.argumentType, "matches() expects a regular expression literal argument.", arg.range)
                return .boolean
            }
            set(arg, .regex)
            regex(pattern: pattern, flags: flags, node: arg)
            return .boolean
        case .replace:
            guard args.count == 2 else {
                error(.argumentCount, "replace() expects 2 arguments.", callSite(e))
                return .string
            }
            for (i, a) in args.enumerated() {
                let t = stringArgument(a)
                if !(t == .string || t.isDynamic || t == .invalid) {
                    error(.argumentType, "Argument \(i + 1) of replace() must be a string.", a.range)
                }
            }
            return .string
        default:
            if args.count != m.arity {
                let expected = m.arity == 0 ? "no arguments" : m.arity == 1 ? "1 argument" : "\(m.arity) arguments"
                error(.argumentCount, "\(m.name)() expects \(expected).", callSite(e))
                return m.resultType
            }
            for a in args {
                let t = stringArgument(a)
                if !(t == .string || t.isDynamic || t == .invalid) {
                    error(.argumentType, "\(m.name)() expects a string argument.", a.range)
                }
            }
            return m.resultType
        }
    }

    /// The part of a call from the name of what is called through the closing parenthesis:
    /// `child('a', 'b')` in `data.child('a', 'b')`. Errors about a call point here rather than at
    /// the start of its receiver, which may be far to the left or on an earlier line.
    private func callSite(_ e: Expression) -> SourceRange {
        guard case .call(let callee, _) = e.kind else { return e.range }
        switch callee.kind {
        case .member(_, _, let nameRange): return SourceRange(start: nameRange.start, end: e.range.end)
        case .index(_, let index): return SourceRange(start: index.range.start, end: e.range.end)
        default: return e.range
        }
    }

    /// Checks an argument that must be a string, giving array and regex literals a type instead
    /// of the "unexpected literal" error, so that the caller's message is the one reported.
    private mutating func stringArgument(_ a: Expression) -> StaticType {
        switch a.kind {
        case .array:
            set(a, .array)
            return .array
        case .regex:
            set(a, .regex)
            return .regex
        default:
            return check(a)
        }
    }

    private mutating func regex(pattern: String, flags: String, node: Expression) {
        let patternStart = Int(node.range.start) + 1
        let flagsStart = patternStart + pattern.utf8.count + 1
        switch regexCache.outcome(pattern: pattern, flags: flags) {
        case .issues(let issues):
            for issue in issues {
                let base = issue.isInFlags ? flagsStart : patternStart
                let r = SourceRange(base + Int(issue.range.start), base + Int(issue.range.end))
                error(issue.code, issue.message, r)
            }
        case .failed(let error):
            let at = patternStart + max(0, min(error.byteOffset, pattern.utf8.count))
            self.error(.regexCompile, "invalid regular expression: \(error.message)", SourceRange(at, at + 1))
        case .compiled(let compiled):
            regexes[node.id] = compiled
        }
    }

    // MARK: - Operators

    private mutating func binary(_ op: BinaryOperator, _ lt: StaticType, _ rt: StaticType, _ l: Expression, _ r: Expression) -> StaticType {
        switch op {
        case .add:
            let ok = operands(lt, l, rt, r, allowing: { $0 == .number || $0 == .string || $0.isDynamic || $0 == .invalid }) {
                "Invalid + expression: \($0) operand is not a number or string."
            }
            if !ok || lt == .invalid || rt == .invalid { return .invalid }
            if lt == .number && rt == .number { return .number }
            if lt == .string || rt == .string { return .string }
            return .dynamicPrimitive
        case .subtract, .multiply, .divide, .remainder:
            operands(lt, l, rt, r, allowing: { $0 == .number || $0.isDynamic || $0 == .invalid }) {
                "Invalid \(op.messageSpelling) expression: \($0) operand is not a number."
            }
            return .number
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let ok = operands(lt, l, rt, r, allowing: { $0 == .number || $0 == .string || $0.isDynamic || $0 == .invalid }) {
                "Invalid \(op.messageSpelling) expression: \($0) operand must be a number or string."
            }
            if ok, (lt == .number && rt == .string) || (lt == .string && rt == .number) {
                error(.invalidOperand, "Invalid \(op.messageSpelling) expression: operands must both be numbers or both be strings.", l.range.union(r.range))
            }
            return .boolean
        case .equal, .notEqual, .strictEqual, .strictNotEqual:
            if !isComparable(lt) {
                let list = (op == .equal || op == .strictEqual) ? "number, boolean, string, null" : "number, boolean, string, or null"
                error(.invalidOperand, "Invalid \(op.messageSpelling) expression: left operand is not a \(list).", l.range)
            }
            if !isComparable(rt) {
                error(.invalidOperand, "Invalid \(op.messageSpelling) expression: right operand is not a number, boolean, string, or null.", r.range)
            }
            return .boolean
        }
    }

    /// Reports the left, then the right operand when `allowing` rejects its type, with the
    /// message made for "left" or "right"; true when both are allowed.
    @discardableResult
    private mutating func operands(
        _ lt: StaticType, _ l: Expression, _ rt: StaticType, _ r: Expression, allowing: (StaticType) -> Bool,
        _ message: (String) -> String
    ) -> Bool {
        var ok = true
        if !allowing(lt) {
            error(.invalidOperand, message("left"), l.range)
            ok = false
        }
        if !allowing(rt) {
            error(.invalidOperand, message("right"), r.range)
            ok = false
        }
        return ok
    }

    private func isComparable(_ t: StaticType) -> Bool {
        switch t {
        case .boolean, .number, .string, .null, .dynamicPrimitive, .dynamicMap, .invalid: true
        default: false
        }
    }

    private mutating func join(_ a: StaticType, _ b: StaticType, _ e: Expression) -> StaticType {
        if a == .invalid || b == .invalid { return .invalid }
        if a == b { return a }
        let primitive: (StaticType) -> Bool = {
            switch $0 {
            case .boolean, .number, .string, .null, .dynamicPrimitive, .dynamicMap: true
            default: false
            }
        }
        if primitive(a) && primitive(b) { return .dynamicPrimitive }
        error(.invalidOperand, "Invalid ?: expression: the branches have incompatible types (\(a) and \(b)).", e.range)
        return .invalid
    }

    // MARK: - Diagnostics

    private mutating func error(_ code: DiagnosticCode, _ message: String, _ localRange: SourceRange) {
        diagnostics.append(.error(code, message, at: source.fileRange(localRange)))
    }
}
