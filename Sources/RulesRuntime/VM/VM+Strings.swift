import RulesCompiler

/// The VM's string methods and `length`. Each costs budget steps in proportion to the length of
/// the string it reads (a step per 64 bytes).
extension VM {
    /// `s.length`: the UTF-16 length.
    @inline(__always)
    static func length(_ v: Value) throws(OperatorError) -> Value {
        guard case .string(let s) = v else { throw OperatorError("Cannot read length of \(v.typeName).") }
        return .number(Double(s.utf16.count))
    }

    /// `contains`, `beginsWith`, `endsWith`.
    @inline(__always)
    static func test(_ op: Opcode, _ v: Value, _ a: Value, _ steps: inout Int) throws(OperatorError) -> Value {
        let name = methodName(op)
        guard case .string(let s) = v else { throw OperatorError("Cannot call \(name)() on \(v.typeName).") }
        guard case .string(let arg) = a else { throw OperatorError("\(name)() expects a string argument, got \(a.typeName).") }
        steps &-= s.utf8.count >> 6
        switch op {
        case .contains: return .bool(StringSemantics.contains(s, arg))
        case .beginsWith: return .bool(StringSemantics.beginsWith(s, arg))
        default: return .bool(StringSemantics.endsWith(s, arg))
        }
    }

    /// `s.replace(a, b)`: every occurrence, within the string-length limit.
    static func replace(_ v: Value, _ a: Value, _ b: Value, _ steps: inout Int) throws(OperatorError) -> Value {
        guard case .string(let s) = v else { throw OperatorError("Cannot call replace() on \(v.typeName).") }
        guard case .string(let sa) = a else { throw OperatorError("Argument 1 of replace() must be a string, got \(a.typeName).") }
        guard case .string(let sb) = b else { throw OperatorError("Argument 2 of replace() must be a string, got \(b.typeName).") }
        steps &-= s.utf8.count >> 6
        let length = StringSemantics.replacedLength(s, sa, with: sb)
        guard length <= DataLimits.maxStringBytes else {
            throw OperatorError("replace() would make a string of \(length == Int.max ? "too many" : String(length)) bytes, over the \(DataLimits.maxStringBytes)-byte limit.")
        }
        return .string(StringSemantics.replaceAll(s, sa, with: sb))
    }

    /// `toLowerCase()`, `toUpperCase()`.
    static func changeCase(_ op: Opcode, _ v: Value, _ steps: inout Int) throws(OperatorError) -> Value {
        guard case .string(let s) = v else { throw OperatorError("Cannot call \(methodName(op))() on \(v.typeName).") }
        steps &-= s.utf8.count >> 6
        let changed: String
        if case .toLowerCase = op { changed = StringSemantics.lowercase(s) } else { changed = StringSemantics.uppercase(s) }
        // Case mapping can lengthen a string (ß → SS); the input is within the limit, so the
        // result is at most three times it.
        guard changed.utf8.count <= DataLimits.maxStringBytes else {
            throw OperatorError("\(methodName(op))() would make a string of \(changed.utf8.count) bytes, over the \(DataLimits.maxStringBytes)-byte limit.")
        }
        return .string(changed)
    }

    /// `s.matches(/regex/)`, whose matching spends the budget's steps.
    @inline(__always)
    static func matches(_ v: Value, _ regex: CompiledRegex, _ steps: inout Int) throws(OperatorError) -> Value {
        guard case .string(let s) = v else { throw OperatorError("Cannot call matches() on \(v.typeName).") }
        let matched: Bool?
        do {
            matched = try regex.matches(s, steps: &steps)
        } catch {
            throw OperatorError("matches() gave up: \(error.message).")
        }
        // nil: the budget ran out while matching.
        guard let matched else { throw exhaustedError() }
        return .bool(matched)
    }
}
