import RulesCompiler
import RulesSyntax

/// A `root.child(...)` path that looks something up in the data before the write, with its
/// segments: literal keys, the caller's `auth.uid`, or `$wildcard`s of the rule's location.
/// `root.child('users').child(auth.uid).child('role')`, `root.child('users/' + auth.uid + '/role')`
/// and `root.child('admins').hasChild(auth.uid)` (as `admins/{auth.uid}`) are understood.
package struct RootLookup {
    package enum Segment: Hashable {
        case key(String)
        case caller
        case wildcard(String)

        package var text: String {
            switch self {
            case .key(let k): k
            case .caller: "{auth.uid}"
            case .wildcard(let w): w
            }
        }
    }

    package var segments: [Segment]
    /// The value the use needs there to grant (`'admin'`, `true`...).
    package var needed: WitnessValue
    /// The use needs the caller's uid there (`root.child('courses/' + $c + '/owner').val() == auth.uid`).
    package var neededIsCaller = false
    /// The use needs only that something is there (`exists()`, `hasChild(auth.uid)`, `!= null`).
    package var existence = false
    /// The expression that uses the lookup (`... .val() === 'admin'`, `... .exists()`).
    package var use: Expression

    /// `/users/{auth.uid}/role`.
    package var description: String { "/" + segments.map(\.text).joined(separator: "/") }

    package var mentionsCaller: Bool { segments.contains(.caller) }

    /// The data that makes the lookup hold for `uid` (nil when it needs a signed-in caller and
    /// there is none), with each `$wildcard` taking `keys[name]` or `fallback`.
    package func data(uid: String?, keys: [String: String], fallback: String) -> (path: [String], value: WitnessValue)? {
        var path: [String] = []
        for s in segments {
            switch s {
            case .key(let k): path.append(k)
            case .caller:
                guard let uid else { return nil }
                path.append(uid)
            case .wildcard(let name): path.append(keys[name] ?? fallback)
            }
        }
        if neededIsCaller {
            guard let uid else { return nil }
            return (path, .string(uid))
        }
        return (path, needed)
    }

    /// Every lookup under the caller's uid in `e` that grants when it holds.
    package static func all(in e: Expression, _ checked: CheckedExpression) -> [RootLookup] {
        var out: [RootLookup] = []
        var stack = [e]
        while let x = stack.popLast() {
            if let l = lookup(x, checked) { out.append(l); continue }
            stack += x.subexpressions.reversed()
        }
        return out.sorted { $0.use.range.start < $1.use.range.start }
    }

    /// The lookup `x` is, if it is one: `S.exists()`, `S.val() == C`, `S.val() != null`,
    /// `S.hasChild(auth.uid)`, `S.val()` (truthy) with `S` a root path.
    private static func lookup(_ x: Expression, _ checked: CheckedExpression) -> RootLookup? {
        switch x.kind {
        case .binary(let op, let l, let r, _) where op.isEquality:
            for (a, b) in [(l, r), (r, l)] {
                guard case .call(let callee, _) = a.kind, case .call(.val)? = checked.resolution(of: a), let recv = callee.receiver,
                    let segs = path(recv, checked)
                else { continue }
                let c = ConstantFolder.fold(b)
                if op == .equal || op == .strictEqual, WitnessPlanner.isAuthUID(b, checked) {
                    return RootLookup(segments: segs, needed: .string(""), neededIsCaller: true, use: x)
                }
                if op == .equal || op == .strictEqual {
                    switch c {
                    case .string(let s)?: return RootLookup(segments: segs, needed: .string(s), use: x)
                    case .bool(let v)?: return RootLookup(segments: segs, needed: .bool(v), use: x)
                    case .number(let n)?: return RootLookup(segments: segs, needed: .number(n), use: x)
                    default: return nil
                    }
                }
                if case .null? = c { return RootLookup(segments: segs, needed: .bool(true), existence: true, use: x) }
                return nil
            }
            return nil
        case .call(let callee, let arguments):
            guard let recv = callee.receiver, let segs = path(recv, checked), case .call(let m)? = checked.resolution(of: x) else { return nil }
            if m == .exists { return RootLookup(segments: segs, needed: .bool(true), existence: true, use: x) }
            if m == .hasChild, arguments.count == 1, WitnessPlanner.isAuthUID(arguments[0], checked) {
                return RootLookup(segments: segs + [.caller], needed: .bool(true), existence: true, use: x)
            }
            return nil
        default:
            return nil
        }
    }

    /// The segments of a `root` path, or nil.
    static func path(_ e: Expression, _ checked: CheckedExpression) -> [Segment]? {
        switch e.kind {
        case .identifier:
            return checked.resolution(of: e) == .root ? [] : nil
        case .call(let callee, let args):
            guard let recv = callee.receiver, let base = path(recv, checked) else { return nil }
            switch checked.resolution(of: e) {
            case .call(.parent)?:
                return base.isEmpty ? nil : Array(base.dropLast())
            case .call(.child)?:
                guard args.count == 1, let more = argument(args[0], checked) else { return nil }
                return base + more
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// A `child()` argument as segments: a string, `auth.uid`, a `$wildcard`, or a `+` of them.
    private static func argument(_ a: Expression, _ checked: CheckedExpression) -> [Segment]? {
        var parts: [Expression] = []
        func flatten(_ x: Expression) {
            if case .binary(.add, let l, let r, _) = x.kind { flatten(l); flatten(r) } else { parts.append(x) }
        }
        flatten(a)
        // Text with one control character standing for each non-literal piece.
        var text = ""
        var pieces: [Segment] = []
        for p in parts {
            if case .string(let s) = p.kind {
                if s.unicodeScalars.contains(where: { $0.value < 0x20 }) { return nil }
                text += s
            } else if WitnessPlanner.isAuthUID(p, checked) {
                text += "\u{1}"
                pieces.append(.caller)
            } else if case .identifier(let name) = p.kind, case .wildcard? = checked.resolution(of: p) {
                text += "\u{1}"
                pieces.append(.wildcard(name))
            } else {
                return nil
            }
        }
        var out: [Segment] = []
        var next = 0
        for s in text.split(separator: "/", omittingEmptySubsequences: true) {
            if s == "\u{1}" {
                out.append(pieces[next])
                next += 1
            } else if s.contains("\u{1}") {
                return nil
            } else {
                out.append(.key(String(s)))
            }
        }
        return next == pieces.count ? out : nil
    }
}
