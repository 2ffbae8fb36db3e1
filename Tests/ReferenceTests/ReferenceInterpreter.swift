import Foundation
import RulesSyntax

/// A runtime error of the reference (spec §7.1): it aborts the whole expression.
struct RefError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A value during reference evaluation (spec §7: doubles, strings, booleans, null or the object
/// sentinel), plus the non-primitive things an expression can hold on the way.
enum RefValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// `val()` of a node with children, or an object inside `auth`: equal to nothing.
    case sentinel
    /// An object inside `auth`, whose members can still be read.
    case authObject([(String, RefInput)])
    /// A location in the old (`root`, `data`) or new (`newData`) tree.
    case snapshot(newTree: Bool, path: [String])
    /// `query`.
    case query
}

/// The context one rule is evaluated in (spec §4.1).
struct RefContext {
    var oldRoot: RefData?
    var newRoot: RefData?
    /// The rule's data path (`data` and `newData` sit here).
    var path: [String]
    var auth: RefInput
    var now: Double
    /// `$name` (with the dollar) → key.
    var variables: [String: String]
    /// The read's query; a plain read's values everywhere else (decisions 2.6, 7.1).
    var query: RefQuery = RefQuery()
}

/// A deliberately simple tree-walking interpreter of parsed rule expressions, written from the
/// language reference (§3–§7) and docs/decisions.md, independent of the bytecode VM. It works on
/// `RefData` (not `DataNode`) and re-evaluates everything from scratch.
///
/// Regular expressions use Foundation's `NSRegularExpression` (see ``RefRegex``), not the
/// project's PCRE2 wrapper; the generated strings have no line breaks.
struct ReferenceInterpreter {
    let context: RefContext

    /// True, false or a runtime error.
    func evaluate(_ e: RulesSyntax.Expression) -> Result<Bool, RefError> {
        do {
            guard case .bool(let b) = try eval(e) else { return .failure(RefError("the rule is not a boolean")) }
            return .success(b)
        } catch let error as RefError {
            return .failure(error)
        } catch {
            return .failure(RefError("\(error)"))
        }
    }

    func eval(_ e: RulesSyntax.Expression) throws -> RefValue {
        switch e.kind {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .boolean(let b): return .bool(b)
        case .null: return .null
        case .regex, .array: throw RefError("a regex or array literal out of place")
        case .identifier(let name): return try variable(name)
        case .member(let object, let name, _):
            return try member(eval(object), name)
        case .index(let object, let index):
            return try subscriptValue(eval(object), eval(index))
        case .call(let callee, let arguments):
            let (receiver, name) = try methodTarget(callee)
            return try call(eval(receiver), name, arguments)
        case .unary(let op, let operand):
            let v = try eval(operand)
            switch (op, v) {
            case (.not, .bool(let b)): return .bool(!b)
            case (.negate, .number(let n)): return .number(-n)
            default: throw RefError("bad operand for unary \(op.rawValue)")
            }
        case .binary(let op, let l, let r, _):
            return try binary(op, eval(l), eval(r))
        case .logical(let op, let operands):
            for operand in operands {
                guard case .bool(let b) = try eval(operand) else { throw RefError("non-boolean \(op.rawValue) operand") }
                if op == .and && !b { return .bool(false) }
                if op == .or && b { return .bool(true) }
            }
            return .bool(op == .and)
        case .conditional(let c, let t, let f):
            guard case .bool(let b) = try eval(c) else { throw RefError("non-boolean condition") }
            return try eval(b ? t : f)
        }
    }

    // MARK: Variables and members

    func variable(_ name: String) throws -> RefValue {
        switch name {
        case "auth": return Self.fromAuth(context.auth)
        case "root": return .snapshot(newTree: false, path: [])
        case "data": return .snapshot(newTree: false, path: context.path)
        case "newData": return .snapshot(newTree: true, path: context.path)
        case "now": return .number(context.now)
        case "query": return .query
        default:
            guard let key = context.variables[name] else { throw RefError("unknown variable \(name)") }
            return .string(key)
        }
    }

    static func fromAuth(_ a: RefInput) -> RefValue {
        switch a {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        case .object(let m): .authObject(m)
        case .timestamp, .increment: .null
        }
    }

    func member(_ v: RefValue, _ name: String) throws -> RefValue {
        switch v {
        case .null:
            // Member access through a null auth gives null; `.length` of null is an error (§4.2).
            if name == "length" { throw RefError("length of null") }
            return .null
        case .authObject(let m):
            return Self.fromAuth(m.last { $0.0 == name }?.1 ?? .null)
        case .string(let s):
            if name == "length" { return .number(Double(s.utf16.count)) }
            throw RefError("property \(name) of a string")
        case .query:
            return context.query.field(name)
        default:
            throw RefError("property \(name) of a non-object")
        }
    }

    func subscriptValue(_ v: RefValue, _ index: RefValue) throws -> RefValue {
        switch index {
        case .string(let s): return try member(v, s)
        case .number(let n): return try member(v, RefNumberText.js(n))
        default:
            // A null or boolean key names nothing: an error even on a null receiver (decision 6.4).
            throw RefError("bad subscript")
        }
    }

    func methodTarget(_ callee: RulesSyntax.Expression) throws -> (RulesSyntax.Expression, String) {
        switch callee.kind {
        case .member(let receiver, let name, _): return (receiver, name)
        case .index(let receiver, let index):
            if case .string(let name) = index.kind { return (receiver, name) }
        default: break
        }
        throw RefError("call on a non-method")
    }

    // MARK: Methods

    func call(_ receiver: RefValue, _ name: String, _ args: [RulesSyntax.Expression]) throws -> RefValue {
        if case .snapshot(let newTree, let path) = receiver {
            return try snapshotMethod(newTree, path, name, args)
        }
        guard case .string(let s) = receiver else { throw RefError("\(name)() on a non-string") }
        switch name {
        case "toLowerCase": return .string(s.lowercased())
        case "toUpperCase": return .string(s.uppercased())
        case "contains": return .bool(Self.find(try stringArgument(args, 0), in: s) != nil)
        case "beginsWith":
            let a = Array(s.utf16), p = Array(try stringArgument(args, 0).utf16)
            return .bool(a.starts(with: p))
        case "endsWith":
            let a = Array(s.utf16), p = Array(try stringArgument(args, 0).utf16)
            return .bool(a.count >= p.count && Array(a[(a.count - p.count)...]) == p)
        case "replace":
            return .string(Self.replaceAll(s, try stringArgument(args, 0), try stringArgument(args, 1)))
        case "matches":
            guard let a = args.first, case .regex(let pattern, let flags) = a.kind else { throw RefError("matches without a regex") }
            return .bool(try RefRegex.matches(s, pattern: pattern, flags: flags))
        default: throw RefError("no string method \(name)")
        }
    }

    func stringArgument(_ args: [RulesSyntax.Expression], _ i: Int) throws -> String {
        guard i < args.count, case .string(let s) = try eval(args[i]) else { throw RefError("argument \(i + 1) is not a string") }
        return s
    }

    /// The first index of `needle` in `hay`, comparing Unicode scalars (the same answers as
    /// UTF-16 code units for valid text).
    static func find(_ needle: String, in hay: String) -> Int? {
        let h = Array(hay.unicodeScalars), n = Array(needle.unicodeScalars)
        if n.isEmpty { return 0 }
        var i = 0
        while i + n.count <= h.count {
            if Array(h[i..<(i + n.count)]) == n { return i }
            i += 1
        }
        return nil
    }

    /// Every non-overlapping occurrence, left to right; an empty target goes before each scalar
    /// and at the end (decision 4.5).
    static func replaceAll(_ s: String, _ target: String, _ replacement: String) -> String {
        let h = Array(s.unicodeScalars), t = Array(target.unicodeScalars)
        var out = String.UnicodeScalarView()
        if t.isEmpty {
            for c in h {
                out.append(contentsOf: replacement.unicodeScalars)
                out.append(c)
            }
            out.append(contentsOf: replacement.unicodeScalars)
            return String(out)
        }
        var i = 0
        while i < h.count {
            if i + t.count <= h.count && Array(h[i..<(i + t.count)]) == t {
                out.append(contentsOf: replacement.unicodeScalars)
                i += t.count
            } else {
                out.append(h[i])
                i += 1
            }
        }
        return String(out)
    }

    func node(_ newTree: Bool, _ path: [String]) -> RefData? {
        RefData.at(newTree ? context.newRoot : context.oldRoot, path)
    }

    /// A `child()` path: `/`-separated, empty segments skipped; an all-empty path is a location
    /// that can hold nothing (decision 5.1).
    static func childKeys(_ p: String) -> [String] {
        let keys = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return keys.isEmpty ? [""] : keys
    }

    func snapshotMethod(_ newTree: Bool, _ path: [String], _ name: String, _ args: [RulesSyntax.Expression]) throws -> RefValue {
        let here = node(newTree, path)
        switch name {
        case "val":
            switch here {
            case nil: return .null
            case .string(let s)?: return .string(s)
            case .number(let n)?: return .number(n)
            case .bool(let b)?: return .bool(b)
            case .object?: return .sentinel
            }
        case "getPriority": return .null
        case "exists": return .bool(here != nil)
        case "isNumber": if case .number? = here { return .bool(true) } else { return .bool(false) }
        case "isString": if case .string? = here { return .bool(true) } else { return .bool(false) }
        case "isBoolean": if case .bool? = here { return .bool(true) } else { return .bool(false) }
        case "parent":
            guard !path.isEmpty else { throw RefError("parent() of the root") }
            return .snapshot(newTree: newTree, path: Array(path.dropLast()))
        case "child":
            return .snapshot(newTree: newTree, path: path + Self.childKeys(try stringArgument(args, 0)))
        case "hasChild":
            return .bool(node(newTree, path + Self.childKeys(try stringArgument(args, 0))) != nil)
        case "hasChildren":
            guard let list = args.first else {
                if case .object? = here { return .bool(true) }
                return .bool(false)
            }
            guard case .array(let items) = list.kind else { throw RefError("hasChildren without an array") }
            var all = true
            for item in items {
                guard case .string(let k) = try eval(item) else { throw RefError("hasChildren element is not a string") }
                if node(newTree, path + Self.childKeys(k)) == nil { all = false }
            }
            return .bool(all)
        default: throw RefError("no snapshot method \(name)")
        }
    }

    // MARK: Operators (§7)

    func binary(_ op: BinaryOperator, _ l: RefValue, _ r: RefValue) throws -> RefValue {
        switch op {
        case .equal, .strictEqual: return .bool(try Self.strictEqual(l, r))
        case .notEqual, .strictNotEqual: return .bool(!(try Self.strictEqual(l, r)))
        case .add:
            switch (l, r) {
            case (.number(let a), .number(let b)): return .number(a + b)
            case (.string(let a), .string(let b)): return .string(a + b)
            case (.string(let a), .number(let b)): return .string(a + RefNumberText.js(b))
            case (.number(let a), .string(let b)): return .string(RefNumberText.js(a) + b)
            default: throw RefError("bad + operands")
            }
        case .subtract, .multiply, .divide, .remainder:
            guard case .number(let a) = l, case .number(let b) = r else { throw RefError("bad \(op.rawValue) operands") }
            switch op {
            case .subtract: return .number(a - b)
            case .multiply: return .number(a * b)
            case .divide: return .number(b == 0 ? .nan : a / b)
            default: return .number(b == 0 ? .nan : a.truncatingRemainder(dividingBy: b))
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let c: Int
            switch (l, r) {
            case (.number(let a), .number(let b)):
                if a.isNaN || b.isNaN { return .bool(false) }
                c = a < b ? -1 : (a > b ? 1 : 0)
            case (.string(let a), .string(let b)):
                let x = Array(a.utf16), y = Array(b.utf16)
                c = x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
            default: throw RefError("bad ordering operands")
            }
            switch op {
            case .less: return .bool(c < 0)
            case .lessOrEqual: return .bool(c <= 0)
            case .greater: return .bool(c > 0)
            default: return .bool(c >= 0)
            }
        }
    }

    /// Strict equality without coercion; the object sentinel equals nothing (decision 3.4).
    static func strictEqual(_ l: RefValue, _ r: RefValue) throws -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return Array(a.utf16) == Array(b.utf16)
        case (.snapshot, _), (_, .snapshot), (.query, _), (_, .query): throw RefError("non-primitive in ==")
        default: return false
        }
    }
}
