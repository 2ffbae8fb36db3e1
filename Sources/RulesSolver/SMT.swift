import CZ3
import Foundation

/// A Z3 term.
package typealias Term = Z3_ast

/// One Z3 context with the sorts of the rules language: `V`, a rules value (`null`, a boolean,
/// a number as a real, a string, or `obj`, a node with children), and the helpers the encoder
/// builds terms with. Not thread-safe: one context per file being analysed.
package final class SMT {
    let ctx: Z3_context
    let boolSort: Z3_sort
    let realSort: Z3_sort
    let stringSort: Z3_sort
    /// The sort of rules values.
    let valueSort: Z3_sort
    private let nullDecl, boolDecl, numDecl, strDecl, objDecl: Z3_func_decl
    private let isNullDecl, isBoolDecl, isNumDecl, isStrDecl, isObjDecl: Z3_func_decl
    private let boolOf, numOf, strOf: Z3_func_decl
    private var fresh = 0

    package init() {
        let cfg = Z3_mk_config()!
        Z3_set_param_value(cfg, "model", "true")
        ctx = Z3_mk_context(cfg)!
        Z3_del_config(cfg)
        // Errors are read from the context, never an abort of the process.
        Z3_set_error_handler(ctx, nil)
        boolSort = Z3_mk_bool_sort(ctx)
        realSort = Z3_mk_real_sort(ctx)
        stringSort = Z3_mk_string_sort(ctx)
        let ctx = ctx
        func symbol(_ s: String) -> Z3_symbol { Z3_mk_string_symbol(ctx, s) }
        func constructor(_ name: String, _ field: (String, Z3_sort)?) -> Z3_constructor {
            var names: [Z3_symbol?] = field.map { [symbol($0.0)] } ?? []
            var sorts: [Z3_sort?] = field.map { [$0.1] } ?? []
            var refs: [UInt32] = field == nil ? [] : [0]
            return Z3_mk_constructor(ctx, symbol(name), symbol("is-" + name), UInt32(names.count), &names, &sorts, &refs)
        }
        var constructors: [Z3_constructor?] = [
            constructor("vnull", nil), constructor("vbool", ("b", Z3_mk_bool_sort(ctx))),
            constructor("vnum", ("n", Z3_mk_real_sort(ctx))), constructor("vstr", ("s", Z3_mk_string_sort(ctx))),
            constructor("vobj", nil),
        ]
        valueSort = Z3_mk_datatype(ctx, symbol("V"), 5, &constructors)
        var decls: [(Z3_func_decl, Z3_func_decl, Z3_func_decl?)] = []
        for (i, c) in constructors.enumerated() {
            var make: Z3_func_decl?
            var test: Z3_func_decl?
            var access: [Z3_func_decl?] = [nil]
            let fields: UInt32 = i == 0 || i == 4 ? 0 : 1
            Z3_query_constructor(ctx, c, fields, &make, &test, &access)
            decls.append((make!, test!, access[0]))
            Z3_del_constructor(ctx, c)
        }
        (nullDecl, isNullDecl) = (decls[0].0, decls[0].1)
        (boolDecl, isBoolDecl, boolOf) = (decls[1].0, decls[1].1, decls[1].2!)
        (numDecl, isNumDecl, numOf) = (decls[2].0, decls[2].1, decls[2].2!)
        (strDecl, isStrDecl, strOf) = (decls[3].0, decls[3].1, decls[3].2!)
        (objDecl, isObjDecl) = (decls[4].0, decls[4].1)
    }

    deinit { Z3_del_context(ctx) }

    /// Where each check is written as SMT-LIB (`RULES_SOLVER_DUMP=DIR`), to read what was asked.
    private static let dumpDirectory = ProcessInfo.processInfo.environment["RULES_SOLVER_DUMP"]
    nonisolated(unsafe) private static var dumps = 0

    // MARK: - Constants and variables

    package var `true`: Term { Z3_mk_true(ctx) }
    package var `false`: Term { Z3_mk_false(ctx) }
    func bool(_ b: Bool) -> Term { b ? self.true : self.false }

    /// A fresh constant of `sort`, named after `prefix`.
    func variable(_ prefix: String, _ sort: Z3_sort) -> Term {
        fresh += 1
        return Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, "\(prefix)!\(fresh)"), sort)
    }

    /// A fresh function from strings (paths) to values.
    func function(_ prefix: String) -> Z3_func_decl {
        fresh += 1
        var domain: [Z3_sort?] = [stringSort]
        return Z3_mk_func_decl(ctx, Z3_mk_string_symbol(ctx, "\(prefix)!\(fresh)"), 1, &domain, valueSort)
    }

    func apply(_ f: Z3_func_decl, _ args: Term...) -> Term {
        var a: [Term?] = args
        return Z3_mk_app(ctx, f, UInt32(a.count), &a)
    }

    /// A string constant: printable ASCII as it is, every other character as Z3's `\\u{...}` escape.
    func string(_ s: String) -> Term {
        var text = ""
        for u in s.unicodeScalars {
            if u.value >= 0x20, u.value < 0x7F, u != "\\" { text.unicodeScalars.append(u) } else { text += "\\u{" + String(u.value, radix: 16) + "}" }
        }
        return Z3_mk_string(ctx, text)
    }

    func real(_ d: Double) -> Term {
        if d == d.rounded(), abs(d) < 1e15 { return Z3_mk_numeral(ctx, String(Int64(d)), realSort) }
        let text = d.description
        if !text.contains("e"), d.isFinite { return Z3_mk_numeral(ctx, text, realSort) }
        // Very large or very small: the nearest of the integers and millionths.
        let scaled = (d * 1_000_000).rounded()
        guard scaled.isFinite, abs(scaled) < 9e18 else { return Z3_mk_numeral(ctx, d < 0 ? "-1000000000000000000" : "1000000000000000000", realSort) }
        return Z3_mk_div(ctx, Z3_mk_numeral(ctx, String(Int64(scaled)), realSort), Z3_mk_numeral(ctx, "1000000", realSort))
    }

    // MARK: - Values

    var null: Term { Z3_mk_app(ctx, nullDecl, 0, nil) }
    var obj: Term { Z3_mk_app(ctx, objDecl, 0, nil) }
    func vbool(_ b: Term) -> Term { apply(boolDecl, b) }
    func vnum(_ n: Term) -> Term { apply(numDecl, n) }
    func vstr(_ s: Term) -> Term { apply(strDecl, s) }
    // The testers and accessors of a value built with a constructor are folded as they are made,
    // so that the formula keeps the conditions on strings side by side (see mergingMemberships).
    func isNull(_ v: Term) -> Term { test(isNullDecl, nullDecl, v) }
    func isBool(_ v: Term) -> Term { test(isBoolDecl, boolDecl, v) }
    func isNum(_ v: Term) -> Term { test(isNumDecl, numDecl, v) }
    func isStr(_ v: Term) -> Term { test(isStrDecl, strDecl, v) }
    func isObj(_ v: Term) -> Term { test(isObjDecl, objDecl, v) }
    func boolOf(_ v: Term) -> Term { field(boolOf, boolDecl, v) }
    func numOf(_ v: Term) -> Term { field(numOf, numDecl, v) }
    func strOf(_ v: Term) -> Term { field(strOf, strDecl, v) }

    /// The constructor `v` is built with, if any.
    private func constructor(of v: Term) -> Z3_func_decl? {
        guard Z3_is_app(ctx, v) else { return nil }
        let d = Z3_get_app_decl(ctx, Z3_to_app(ctx, v))!
        for c in [nullDecl, boolDecl, numDecl, strDecl, objDecl] where Z3_is_eq_func_decl(ctx, c, d) { return c }
        return nil
    }

    private func test(_ tester: Z3_func_decl, _ made: Z3_func_decl, _ v: Term) -> Term {
        guard let c = constructor(of: v) else { return apply(tester, v) }
        return bool(Z3_is_eq_func_decl(ctx, c, made))
    }

    private func field(_ accessor: Z3_func_decl, _ made: Z3_func_decl, _ v: Term) -> Term {
        if let c = constructor(of: v), Z3_is_eq_func_decl(ctx, c, made) { return Z3_get_app_arg(ctx, Z3_to_app(ctx, v), 0) }
        return apply(accessor, v)
    }
    /// A leaf: a boolean, number or string.
    func isLeaf(_ v: Term) -> Term { or(isBool(v), isNum(v), isStr(v)) }

    // MARK: - Logic

    func and(_ terms: Term...) -> Term { and(terms) }
    func and(_ terms: [Term]) -> Term {
        var kept: [Term?] = []
        for t in terms {
            switch constant(t) {
            case true?: continue
            case false?: return self.false
            case nil: kept.append(t)
            }
        }
        if kept.isEmpty { return self.true }
        if kept.count == 1 { return kept[0]! }
        return Z3_mk_and(ctx, UInt32(kept.count), &kept)
    }

    /// The value of `true` or `false`, nil for any other term.
    private func constant(_ t: Term) -> Bool? {
        guard Z3_is_app(ctx, t) else { return nil }
        let k = Z3_get_decl_kind(ctx, Z3_get_app_decl(ctx, Z3_to_app(ctx, t)))
        return k == Z3_OP_TRUE ? true : k == Z3_OP_FALSE ? false : nil
    }
    func or(_ terms: Term...) -> Term { or(terms) }
    func or(_ terms: [Term]) -> Term {
        var kept: [Term?] = []
        for t in terms {
            switch constant(t) {
            case false?: continue
            case true?: return self.true
            case nil: kept.append(t)
            }
        }
        if kept.isEmpty { return self.false }
        if kept.count == 1 { return kept[0]! }
        return Z3_mk_or(ctx, UInt32(kept.count), &kept)
    }
    func not(_ t: Term) -> Term {
        if let c = constant(t) { return bool(!c) }
        return Z3_mk_not(ctx, t)
    }
    // Implications, equalities and conditionals whose answer is known as they are made are
    // folded, so that an operand's type known from its constructor prunes the branches of the
    // other types (a string literal's number branch of `+` brings no string conversion along).
    func implies(_ a: Term, _ b: Term) -> Term {
        switch (constant(a), constant(b)) {
        case (false?, _), (_, true?): return self.true
        case (true?, _): return b
        default: return Z3_mk_implies(ctx, a, b)
        }
    }
    func eq(_ a: Term, _ b: Term) -> Term {
        if Z3_is_eq_ast(ctx, a, b) { return self.true }
        if Z3_is_string(ctx, a), Z3_is_string(ctx, b) { return self.false }
        if let x = constructor(of: a), let y = constructor(of: b), !Z3_is_eq_func_decl(ctx, x, y) { return self.false }
        return Z3_mk_eq(ctx, a, b)
    }
    func ite(_ c: Term, _ a: Term, _ b: Term) -> Term {
        switch constant(c) {
        case true?: return a
        case false?: return b
        case nil: return Z3_is_eq_ast(ctx, a, b) ? a : Z3_mk_ite(ctx, c, a, b)
        }
    }
    /// Whether `t` is the literal `true` (or `false`), nil when it is not a literal.
    func literal(_ t: Term) -> Bool? { constant(t) }

    // MARK: - Numbers

    func add(_ a: Term, _ b: Term) -> Term { var x: [Term?] = [a, b]; return Z3_mk_add(ctx, 2, &x) }
    func sub(_ a: Term, _ b: Term) -> Term { var x: [Term?] = [a, b]; return Z3_mk_sub(ctx, 2, &x) }
    func mul(_ a: Term, _ b: Term) -> Term { var x: [Term?] = [a, b]; return Z3_mk_mul(ctx, 2, &x) }
    func div(_ a: Term, _ b: Term) -> Term { Z3_mk_div(ctx, a, b) }
    func neg(_ a: Term) -> Term { Z3_mk_unary_minus(ctx, a) }
    func lt(_ a: Term, _ b: Term) -> Term { Z3_mk_lt(ctx, a, b) }
    func le(_ a: Term, _ b: Term) -> Term { Z3_mk_le(ctx, a, b) }
    func isInt(_ a: Term) -> Term { Z3_mk_is_int(ctx, a) }
    func toReal(_ i: Term) -> Term { Z3_mk_int2real(ctx, i) }
    func toInt(_ r: Term) -> Term { Z3_mk_real2int(ctx, r) }
    func int(_ n: Int) -> Term { Z3_mk_int(ctx, Int32(n), Z3_mk_int_sort(ctx)) }
    func intLE(_ a: Term, _ b: Term) -> Term { Z3_mk_le(ctx, a, b) }

    // MARK: - Strings

    func concat(_ terms: [Term]) -> Term {
        if terms.isEmpty { return string("") }
        if terms.count == 1 { return terms[0] }
        var a: [Term?] = terms
        return Z3_mk_seq_concat(ctx, UInt32(a.count), &a)
    }
    func prefix(_ p: Term, of s: Term) -> Term { Z3_mk_seq_prefix(ctx, p, s) }
    func suffix(_ p: Term, of s: Term) -> Term { Z3_mk_seq_suffix(ctx, p, s) }
    func contains(_ s: Term, _ part: Term) -> Term { Z3_mk_seq_contains(ctx, s, part) }
    /// The length as a real.
    func length(_ s: Term) -> Term { toReal(Z3_mk_seq_length(ctx, s)) }
    func lengthInt(_ s: Term) -> Term { Z3_mk_seq_length(ctx, s) }
    func strLT(_ a: Term, _ b: Term) -> Term { Z3_mk_str_lt(ctx, a, b) }
    func strLE(_ a: Term, _ b: Term) -> Term { Z3_mk_str_le(ctx, a, b) }
    func replaceFirst(_ s: Term, _ a: Term, _ b: Term) -> Term { Z3_mk_seq_replace(ctx, s, a, b) }
    /// The decimal text of a non-negative integer (as a real).
    func decimal(_ r: Term) -> Term { Z3_mk_int_to_str(ctx, toInt(r)) }
    func inRegex(_ s: Term, _ re: Term) -> Term { Z3_mk_seq_in_re(ctx, s, re) }

    // MARK: - Regular expressions

    var reSort: Z3_sort { Z3_mk_re_sort(ctx, stringSort) }
    func reLiteral(_ s: String) -> Term { Z3_mk_seq_to_re(ctx, string(s)) }
    func reRange(_ lo: UInt32, _ hi: UInt32) -> Term { Z3_mk_re_range(ctx, string(Self.char(lo)), string(Self.char(hi))) }
    func reConcat(_ terms: [Term]) -> Term {
        if terms.isEmpty { return reLiteral("") }
        if terms.count == 1 { return terms[0] }
        var a: [Term?] = terms
        return Z3_mk_re_concat(ctx, UInt32(a.count), &a)
    }
    func reUnion(_ terms: [Term]) -> Term {
        if terms.isEmpty { return Z3_mk_re_empty(ctx, reSort) }
        if terms.count == 1 { return terms[0] }
        var a: [Term?] = terms
        return Z3_mk_re_union(ctx, UInt32(a.count), &a)
    }
    func reIntersect(_ a: Term, _ b: Term) -> Term { var x: [Term?] = [a, b]; return Z3_mk_re_intersect(ctx, 2, &x) }
    func reComplement(_ a: Term) -> Term { Z3_mk_re_complement(ctx, a) }
    func reStar(_ a: Term) -> Term { Z3_mk_re_star(ctx, a) }
    func rePlus(_ a: Term) -> Term { Z3_mk_re_plus(ctx, a) }
    func reOption(_ a: Term) -> Term { Z3_mk_re_option(ctx, a) }
    func reLoop(_ a: Term, _ lo: Int, _ hi: Int?) -> Term {
        if let hi { return Z3_mk_re_loop(ctx, a, UInt32(lo), UInt32(hi)) }
        return reConcat([Z3_mk_re_loop(ctx, a, UInt32(lo), UInt32(lo)), reStar(a)])
    }
    /// Every string.
    var reAll: Term { Z3_mk_re_full(ctx, reSort) }
    /// Any one character (of the characters Z3's strings hold).
    var reAnyChar: Term { reRange(0, 0xFF) }

    private static func char(_ c: UInt32) -> String { String(Character(Unicode.Scalar(c) ?? "?")) }

    /// The strings none of whose characters are in `chars` (a string a regular expression tests
    /// faster than a negated `contains`).
    func reWithout(_ chars: String) -> Term {
        var ranges: [Term] = []
        var lo: UInt32 = 0
        for c in chars.unicodeScalars.map(\.value).sorted() {
            if c > lo { ranges.append(reRange(lo, c - 1)) }
            lo = c + 1
        }
        ranges.append(reRange(lo, RegexEncoder.lastChar))
        return reStar(reUnion(ranges))
    }

    // MARK: - Solving

    /// The answer of one check.
    package enum Outcome {
        case sat(SMTModel)
        case unsat
        case unknown(String)
    }

    /// Z3's resource count (its `rlimit`) for a millisecond of solving, as measured on a 2-core
    /// machine (about 700,000 for a second): a check's time is given as that much work, so that
    /// a check gives the same answer on any machine and under any load.
    package static let workPerMillisecond: UInt64 = 700
    /// The work of every check made so far, in Z3's resource count.
    package private(set) var work: UInt64 = 0

    /// Checks `constraints` within `milliseconds` of work (``workPerMillisecond``); the time
    /// itself may be four times that before the check is stopped, on a slow or busy machine.
    func check(_ constraints: [Term], milliseconds: UInt32) -> Outcome {
        let solver = Z3_mk_solver(ctx)!
        Z3_solver_inc_ref(ctx, solver)
        defer { Z3_solver_dec_ref(ctx, solver) }
        let params = Z3_mk_params(ctx)!
        Z3_params_inc_ref(ctx, params)
        let limit = min(UInt64(milliseconds) * Self.workPerMillisecond, UInt64(UInt32.max))
        Z3_params_set_uint(ctx, params, Z3_mk_string_symbol(ctx, "rlimit"), UInt32(limit))
        Z3_params_set_uint(ctx, params, Z3_mk_string_symbol(ctx, "timeout"), UInt32(min(UInt64(milliseconds) * 4, UInt64(UInt32.max))))
        Z3_solver_set_params(ctx, solver, params)
        Z3_params_dec_ref(ctx, params)
        for c in mergingMemberships(constraints) { Z3_solver_assert(ctx, solver, c) }
        if Z3_get_error_code(ctx) != Z3_OK {
            return .unknown("the solver refused the encoding (\(String(cString: Z3_get_error_msg(ctx, Z3_get_error_code(ctx)))))")
        }
        let started = ContinuousClock.now
        let before = resourceCount(solver)
        let result = Z3_solver_check(ctx, solver)
        let used = resourceCount(solver)
        work += used >= before ? used - before : used
        if let dump = Self.dumpDirectory {
            let elapsed = started.duration(to: .now).components
            Self.dumps += 1
            let text = String(cString: Z3_solver_to_string(ctx, solver)) + "\n; result \(result.rawValue) \(String(cString: Z3_solver_get_reason_unknown(ctx, solver))) in \(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000) ms of \(milliseconds)\n"
            try? text.write(toFile: "\(dump)/q\(Self.dumps).smt2", atomically: false, encoding: .utf8)
        }
        switch result {
        case Z3_L_TRUE:
            return .sat(SMTModel(smt: self, model: Z3_solver_get_model(ctx, solver)))
        case Z3_L_FALSE:
            return .unsat
        default:
            let reason = String(cString: Z3_solver_get_reason_unknown(ctx, solver))
            let outOfTime = reason == "timeout" || reason == "canceled" || reason.contains("resource") || reason.contains("rlimit")
            return .unknown(outOfTime ? "the solver ran out of time (\(milliseconds) ms)" : "the solver gave up (\(reason))")
        }
    }

    /// The resource count a check used (Z3's `rlimit count` statistic).
    private func resourceCount(_ solver: Z3_solver) -> UInt64 {
        guard let stats = Z3_solver_get_statistics(ctx, solver) else { return 0 }
        Z3_stats_inc_ref(ctx, stats)
        defer { Z3_stats_dec_ref(ctx, stats) }
        for i in 0..<Z3_stats_size(ctx, stats) where String(cString: Z3_stats_get_key(ctx, stats, i)) == "rlimit count" {
            return Z3_stats_is_uint(ctx, stats, i) ? UInt64(Z3_stats_get_uint_value(ctx, stats, i)) : UInt64(Z3_stats_get_double_value(ctx, stats, i))
        }
        return 0
    }

    // MARK: - Reading models

    func boolValue(_ t: Term) -> Bool? {
        switch Z3_get_bool_value(ctx, t) {
        case Z3_L_TRUE: true
        case Z3_L_FALSE: false
        default: nil
        }
    }

    func stringValue(_ t: Term) -> String? {
        guard Z3_is_string(ctx, t) else { return nil }
        var length: UInt32 = 0
        guard let p = Z3_get_lstring(ctx, t, &length) else { return nil }
        let bytes = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self)
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
    }

    func doubleValue(_ t: Term) -> Double? {
        guard Z3_get_ast_kind(ctx, t) == Z3_NUMERAL_AST else { return nil }
        let text = String(cString: Z3_get_numeral_string(ctx, t))
        let parts = text.split(separator: "/")
        if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d != 0 { return n / d }
        return Double(text)
    }
}

/// A satisfying assignment.
package final class SMTModel {
    let smt: SMT
    let model: Z3_model

    init(smt: SMT, model: Z3_model) {
        self.smt = smt
        self.model = model
        Z3_model_inc_ref(smt.ctx, model)
    }

    deinit { Z3_model_dec_ref(smt.ctx, model) }

    func eval(_ t: Term) -> Term? {
        var out: Z3_ast?
        guard Z3_model_eval(smt.ctx, model, t, true, &out), let out else { return nil }
        return out
    }

    func bool(_ t: Term) -> Bool? { eval(t).flatMap { smt.boolValue($0) } }
    func string(_ t: Term) -> String? { eval(t).flatMap { smt.stringValue($0) } }
    func double(_ t: Term) -> Double? { eval(t).flatMap { smt.doubleValue($0) } }

    /// A rules value's leaf, or nil for null and objects (`isObject` tells them apart).
    func value(_ v: Term) -> SolverValue {
        if bool(smt.isNull(v)) == true { return .null }
        if bool(smt.isObj(v)) == true { return .object }
        if bool(smt.isBool(v)) == true { return .bool(bool(smt.boolOf(v)) ?? false) }
        if bool(smt.isNum(v)) == true { return .number(double(smt.numOf(v)) ?? 0) }
        if bool(smt.isStr(v)) == true { return .string(string(smt.strOf(v)) ?? "") }
        return .null
    }
}

/// A value read from a model.
package enum SolverValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A node with children (which the model's other paths give).
    case object
}
