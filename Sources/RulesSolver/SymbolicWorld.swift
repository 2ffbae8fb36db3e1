import CZ3

/// The unknowns of one question: `auth`, the wildcards' keys, the query, and the database as two
/// functions from paths to values, before (`B`) and after (`A`) the operation. A path is the
/// string `/k1/k2...` (the root is `""`): keys hold no `/`, so the string names the path.
///
/// Only the paths the rules reach are ever looked at; the constraints that make the two functions
/// trees (a node under a leaf or null does not exist; the write changes only what it writes and
/// its ancestors) are stated between those paths when the question is closed (``constraints()``).
final class SymbolicWorld {
    enum Tree { case before, after }

    let smt: SMT
    let mode: SolverMode
    /// Paths looked up in each tree, as terms, and the value each holds: one unknown per path
    /// term, equal to another's whenever the two paths are equal (no uninterpreted functions,
    /// which Z3's string solver handles poorly).
    private(set) var beforePaths: [Term] = []
    private(set) var afterPaths: [Term] = []
    private var values: [String: Term] = [:]
    /// String unknowns whose text the witness carries (keys, values, auth): printable in `find` mode.
    private(set) var strings: [Term] = []
    var constraints: [Term] = []
    /// Where the operation writes (nil for a read) and whether it deletes.
    var writePath: Term?
    var deletes = false
    /// The data before is given whole (its values already make a tree).
    var givenBefore = false

    init(smt: SMT, mode: SolverMode) {
        self.smt = smt
        self.mode = mode
    }

    /// The path text of `segments` (`""` for the root).
    func join(_ segments: [Term]) -> Term {
        var parts: [Term] = []
        for s in segments {
            parts.append(smt.string("/"))
            parts.append(s)
        }
        let path = smt.concat(parts)
        if segmentsOf[path] == nil { segmentsOf[path] = segments }
        return path
    }

    /// The keys each joined path was made of.
    private var segmentsOf: [Term: [Term]] = [:]
    /// Computed keys that may hold a `/` (a `child()` argument read from data, in `prove` mode):
    /// such a key may stand for several keys.
    var mayHoldSlash: Set<Term> = []

    /// Whether two paths can be neither equal nor one below the other, seen from their keys: a
    /// pair of different literal keys at the same place, with no key before it that may hold a
    /// `/`. The constraints between such paths are left out (they would all be vacuous).
    private func unrelated(_ p: Term, _ q: Term) -> Bool {
        guard let a = segmentsOf[p], let b = segmentsOf[q] else { return false }
        for (x, y) in zip(a, b) {
            if mayHoldSlash.contains(x) || mayHoldSlash.contains(y) { return false }
            if Z3_is_string(smt.ctx, x), Z3_is_string(smt.ctx, y) {
                if x != y { return true }
            }
        }
        return false
    }

    private func name(_ tree: Tree, _ path: Term) -> String {
        "\(tree == .before ? "B" : "A"):\(String(cString: Z3_ast_to_string(smt.ctx, path)))"
    }

    /// The value at `path` in `tree`; the path is remembered for the tree constraints.
    func value(_ tree: Tree, _ path: Term) -> Term {
        let key = name(tree, path)
        if let v = values[key] { return v }
        let v = smt.variable(tree == .before ? "B" : "A", smt.valueSort)
        values[key] = v
        if tree == .before { beforePaths.append(path) } else { afterPaths.append(path) }
        return v
    }

    /// A node's priority, which the witness never sets: unconstrained.
    func priority(_ tree: Tree, _ path: Term) -> Term {
        smt.variable("priority", smt.valueSort)
    }

    /// A fresh string whose text a witness may carry.
    func stringVariable(_ name: String) -> Term {
        let s = smt.variable(name, smt.stringSort)
        strings.append(s)
        return s
    }

    /// The characters of a key: none of `. # $ [ ] /` nor control characters (in `find` mode,
    /// printable ASCII only).
    private var keyCharacter: Term {
        var ranges = [smt.reRange(0x20, 0x22), smt.reRange(0x25, 0x2D), smt.reRange(0x30, 0x5A), smt.reRange(0x5C, 0x5C), smt.reRange(0x5E, 0x7E)]
        if mode == .prove { ranges.append(smt.reRange(0x80, RegexEncoder.lastChar)) }
        return smt.reUnion(ranges)
    }

    /// A key a path may hold: not empty, at most 768 bytes, of ``keyCharacter``s.
    func validKey(_ s: Term) -> Term {
        keys.insert(s)
        return smt.and(smt.inRegex(s, smt.rePlus(keyCharacter)), smt.intLE(smt.lengthInt(s), smt.int(768)))
    }

    /// Terms constrained to be keys (``validKey(_:)``).
    private var keys: Set<Term> = []

    /// A path whose every key is valid: decided here when its keys are literals or known keys,
    /// else a regular membership of the whole path.
    private func validPath(_ p: Term) -> Term {
        if let segments = segmentsOf[p] {
            var decided = true
            for k in segments where !keys.contains(k) {
                guard Z3_is_string(smt.ctx, k), let text = smt.stringValue(k) else {
                    decided = false
                    break
                }
                if !Self.isKey(text) { return smt.false }
            }
            if decided { return smt.true }
        }
        return smt.inRegex(p, smt.reStar(smt.reConcat([smt.reLiteral("/"), smt.rePlus(keyCharacter)])))
    }

    /// Whether a literal is a key: not empty, at most 768 bytes, none of `. # $ [ ] /` nor control
    /// characters.
    static func isKey(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 768 && !s.unicodeScalars.contains { ".#$[]/".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `q` is strictly below `p`.
    private func below(_ q: Term, _ p: Term) -> Term {
        if let (a, b) = keysOfBoth(p, q) {
            guard b.count > a.count else { return smt.false }
            return smt.and(zip(a, b).map { smt.eq($0, $1) })
        }
        return smt.prefix(smt.concat([p, smt.string("/")]), of: q)
    }

    /// `p` and `q` are the same path: key by key when both are made of keys without `/`.
    private func same(_ p: Term, _ q: Term) -> Term {
        if let (a, b) = keysOfBoth(p, q) {
            guard a.count == b.count else { return smt.false }
            return smt.and(zip(a, b).map { smt.eq($0, $1) })
        }
        return smt.eq(p, q)
    }

    /// The keys of two paths when neither may hold a `/` in a key (so that comparing the paths
    /// is comparing their keys one by one).
    private func keysOfBoth(_ p: Term, _ q: Term) -> ([Term], [Term])? {
        guard let a = segmentsOf[p], let b = segmentsOf[q] else { return nil }
        func plain(_ k: Term) -> Bool {
            if mayHoldSlash.contains(k) { return false }
            if keys.contains(k) { return true }
            guard Z3_is_string(smt.ctx, k), let text = smt.stringValue(k) else { return false }
            return !text.contains("/")
        }
        guard a.allSatisfy(plain), b.allSatisfy(plain) else { return nil }
        return (a, b)
    }

    /// The constraints that make the two functions trees and relate them through the operation.
    func treeConstraints() -> [Term] {
        var out: [Term] = []
        if let w = writePath {
            // The written location is always looked at (its value is the value written).
            _ = value(.after, w)
        }
        // Every path looked at in either tree, in both.
        for p in beforePaths + afterPaths {
            _ = value(.before, p)
            _ = value(.after, p)
        }
        for (tree, paths) in [(Tree.before, beforePaths), (.after, afterPaths)] where tree == .after || !givenBefore {
            for (i, p) in paths.enumerated() {
                let v = value(tree, p)
                out.append(smt.implies(smt.not(validPath(p)), smt.isNull(v)))
                for (j, q) in paths.enumerated() where j != i && !unrelated(p, q) {
                    // Equal paths hold equal values; a node below a leaf or a missing node does
                    // not exist.
                    if j > i { out.append(smt.implies(same(p, q), smt.eq(v, value(tree, q)))) }
                    out.append(smt.implies(smt.and(below(q, p), smt.not(smt.isNull(value(tree, q)))), smt.isObj(v)))
                }
                if mode == .find {
                    // An object has a child among the paths looked at, so that the witness needs
                    // no invented child.
                    let children = paths.indices.filter { $0 != i && !unrelated(p, paths[$0]) }.map { j in smt.and(below(paths[j], p), smt.not(smt.isNull(value(tree, paths[j])))) }
                    out.append(smt.implies(smt.isObj(v), smt.or(children)))
                }
            }
        }
        out += operationConstraints()
        if mode == .find {
            // Printable ASCII, short: what a witness can show.
            let printable = smt.reStar(smt.reRange(0x20, 0x7E))
            for s in strings {
                out.append(smt.inRegex(s, printable))
                out.append(smt.intLE(smt.lengthInt(s), smt.int(64)))
            }
            for p in beforePaths + afterPaths {
                for tree in [Tree.before, .after] {
                    let v = value(tree, p)
                    out.append(smt.implies(smt.isStr(v), smt.and(smt.inRegex(smt.strOf(v), printable), smt.intLE(smt.lengthInt(smt.strOf(v)), smt.int(200)))))
                }
            }
        }
        return out
    }

    /// The tree after, path by path: what the operation writes, its ancestors, the rest unchanged.
    private func operationConstraints() -> [Term] {
        var out: [Term] = []
        for p in beforePaths {
            let a = value(.after, p)
            let b = value(.before, p)
            guard let w = writePath else {
                out.append(smt.eq(a, b))
                continue
            }
            let written = smt.or(same(p, w), below(p, w))
            let ancestor = below(w, p)
            let aw = value(.after, w)
            if deletes { out.append(smt.implies(written, smt.isNull(a))) }
            out.append(smt.implies(smt.and(smt.not(written), smt.not(ancestor)), smt.eq(a, b)))
            // An ancestor of a value written holds it; of a deletion, it stays or goes with it.
            out.append(smt.implies(smt.and(ancestor, smt.not(smt.isNull(aw))), smt.isObj(a)))
            out.append(smt.implies(smt.and(ancestor, smt.isNull(aw)), smt.or(smt.eq(a, b), smt.and(smt.isObj(b), smt.isNull(a)))))
        }
        return out
    }
}

/// What a question is for.
package enum SolverMode: Sendable {
    /// Finding a witness: the encoding may be narrower than the rules (printable strings, a
    /// regular expression's common case), since the engine checks every model.
    case find
    /// Proving that there is none: the encoding is never narrower than the rules; what it cannot
    /// express is left free.
    case prove
}
