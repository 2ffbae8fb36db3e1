import RulesCompiler
import RulesSyntax

/// What the VM reads besides the data: `auth` and its members, the wildcards, `query`.
extension VM {
    /// ``Opcode/authMember``: `auth.name` (string `name`), looked up once per decision; `pc`
    /// then moves onto the absorbed `property`. Nil when the look-up fails, so that `auth` is
    /// pushed and the `property` after it runs and reports the error.
    @inline(__always)
    static func authMember(
        _ name: Int32, at pc: inout Int, _ ctx: EvaluationContext, _ rs: CompiledRuleset, _ authMembers: inout AuthMemberCache
    ) -> Value? {
        if let known = authMembers.value(name) {
            pc += 1
            return known
        }
        guard case .success(let member) = property(Value(ctx.auth), rs.strings[Int(name)]) else { return nil }
        authMembers.remember(name, member)
        pc += 1
        return member
    }

    /// Whether no one is signed in.
    @inline(__always)
    static func signedOut(_ ctx: EvaluationContext) -> Bool {
        if case .null = ctx.auth { return true }
        return false
    }

    /// The key bound by wildcard `slot`.
    @inline(__always)
    static func wildcard(_ slot: Int32, _ ctx: EvaluationContext) throws(OperatorError) -> Value {
        guard slot >= 0, Int(slot) < ctx.wildcardKeys.count else { throw OperatorError("The wildcard variable is not bound.") }
        return .string(ctx.wildcardKeys[Int(slot)])
    }

    /// A field of the read's query (``QueryField`` index `index`).
    static func queryField(_ index: Int, _ q: QueryParameters) -> Value {
        guard index >= 0, index < QueryField.allCases.count else { return .null }
        switch QueryField.allCases[index] {
        case .orderByKey: return .bool(q.orderByKey)
        case .orderByPriority: return .bool(q.orderByPriority)
        case .orderByValue: return .bool(q.orderByValue)
        case .orderByChild: return q.orderByChild.map(Value.string) ?? .null
        case .startAt: return q.startAt.map(Value.init) ?? .null
        case .endAt: return q.endAt.map(Value.init) ?? .null
        case .equalTo: return q.equalTo.map(Value.init) ?? .null
        case .limitToFirst: return q.limitToFirst.map(Value.number) ?? .null
        case .limitToLast: return q.limitToLast.map(Value.number) ?? .null
        }
    }

    /// `value.name` on an auth value: objects look the name up, null gives null (spec §4.2),
    /// and `length` of a string is its length. Anything else is a runtime error.
    static func property(_ v: Value, _ name: String) -> Result<Value, OperatorError> {
        switch v {
        case .auth(.object(let o)):
            return .success(Value(AuthValue.member(of: o, name)))
        case .auth(.array(let a)):
            if name == "length" { return .success(.number(Double(a.count))) }
            if let i = Int(name), i >= 0, i < a.count { return .success(Value(a[i])) }
            return .success(.null)
        case .null:
            if name == "length" { return .failure(OperatorError("Cannot read length of null.")) }
            return .success(.null)
        case .string(let s):
            if name == "length" { return .success(.number(Double(s.utf16.count))) }
            return .failure(OperatorError("Cannot read property '\(name)' of a string."))
        default:
            return .failure(OperatorError("Cannot read property '\(name)' of \(v.typeName)."))
        }
    }

    /// `value[index]` on an auth value.
    static func index(_ v: Value, _ i: Value) -> Result<Value, OperatorError> {
        switch i {
        case .string(let name):
            return property(v, name)
        case .number(let n):
            if case .auth(.array(let a)) = v {
                guard n >= 0, n == n.rounded(), n < Double(a.count) else { return .success(.null) }
                return .success(Value(a[Int(n)]))
            }
            return property(v, JSNumberFormatter.string(n))
        default:
            return .failure(OperatorError("Cannot index with \(i.typeName)."))
        }
    }
}
