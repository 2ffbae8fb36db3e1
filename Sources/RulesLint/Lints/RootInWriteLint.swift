import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `root-in-write`: see ``RootInWriteLint``.
    public static let rootInWrite = LintCode(declaring: "root-in-write")
}

/// `root-in-write`: a `root.child(...)` path that lands on or below the rule's own location.
/// `root` is the tree before the write, so such a path reads the old value of data the write is
/// changing. In `.validate` every such path is reported; in `.write`, where reading the old value
/// (the old owner, the old status) to authorise is common and right, only a path whose value is
/// checked the way a new value is: `isString()`, `hasChildren()`, `.length`, string methods,
/// ordering or arithmetic.
enum RootInWriteLint: StaticLint {
    static let code = LintCode.rootInWrite
    static let category = LintCategory.security
    static let securitySeverity: Double? = 4.3
    /// It proposes no witness (it is about what a rule reads, not what it allows): its findings
    /// are kept unconfirmed.
    static let witnessPolicy = WitnessPolicy.searched
    static let summary = "root.child(...) in a write rule reaches into the data being written."
    static let help =
        "root is the tree before the write. In .validate, a root path on or below the rule's location reads the old value of data the write is changing; in .write, it is reported when the old value is checked like a new one (isString(), hasChildren(), .length, ordering or arithmetic), while comparing an old owner with auth is fine. Use newData (climbing with newData.parent() if needed) for the new value, or data for the old one."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        var out: [LintFinding] = []
        context.tree.forEachNode { node in
            for kind in RuleKind.allCases where kind != .read {
                guard let rule = node.rule(kind), case .expression(let checked) = rule.body else { continue }
                let anchor = "\(node.pathDescription) \(kind.key)"
                check(checked, kind: kind, node: node) { out.append(LintFinding(code: code, message: $1, range: $0, anchor: anchor)) }
            }
        }
        return out
    }

    /// A piece of a `child()` path: literal text or a `$wildcard`.
    private enum Piece: Equatable {
        case text(String)
        case wildcard(String)
    }

    private static func check(_ checked: CheckedExpression, kind: RuleKind, node: RuleNode, report: (SourceRange, String) -> Void) {
        visit(checked.root, parent: nil, checked, kind, node, report)
    }

    private static func visit(
        _ e: Expression, parent: Expression?, _ checked: CheckedExpression, _ kind: RuleKind, _ node: RuleNode,
        _ report: (SourceRange, String) -> Void
    ) {
        if let segments = rootPath(e, checked), !segments.isEmpty {
            let path = node.path
            if segments.count >= max(path.count, 1), zip(path, segments).allSatisfy({ matches($0, $1) }) {
                let rest = Array(segments.dropFirst(path.count))
                let suffix = rest.isEmpty ? "" : ".child(\(expression(rest)))"
                let reads = "/" + segments.map(spell).joined(separator: "/")
                if kind == .validate {
                    report(checked.fileRange(of: e),
                        "root is the tree before the write: this reads the old value of \(reads), inside the location this rule judges (\(node.pathDescription)), the same as data\(suffix); if the new value is meant, use newData\(suffix).")
                } else if let check = newValueCheck(on: e, parent: parent, checked) {
                    report(checked.fileRange(of: check),
                        "root is the tree before the write: this checks the old value of \(reads), inside the location this .write judges (\(node.pathDescription)), not the value being written; use newData\(suffix) to check the new value (data\(suffix) if the old one is meant).")
                }
                return
            }
        }
        for c in e.subexpressions { visit(c, parent: e, checked, kind, node, report) }
    }

    /// When the snapshot `s` (whose parent expression is `parent`) is checked the way a new value
    /// is, the expression that does it.
    private static func newValueCheck(on s: Expression, parent: Expression?, _ checked: CheckedExpression) -> Expression? {
        // parent is the callee `s.method`; find the call around it by searching from the root.
        guard let callee = parent, case .member(let recv, _, _) = callee.kind, recv === s else { return nil }
        guard let call = enclosingCall(of: callee, in: checked.root), case .call(let m)? = checked.resolution(of: call) else { return nil }
        switch m {
        case .isString, .isNumber, .isBoolean, .hasChildren, .hasChild:
            return call
        case .val:
            guard let around = enclosing(call, in: checked.root) else { return nil }
            switch around.kind {
            case .member(let o, _, _) where o === call: return around
            case .binary(let op, _, _, _) where !op.isEquality: return around
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The call whose callee is `callee`.
    private static func enclosingCall(of callee: Expression, in root: Expression) -> Expression? {
        guard let p = enclosing(callee, in: root), case .call(let c, _) = p.kind, c === callee else { return nil }
        return p
    }

    /// The expression that directly contains `e`.
    private static func enclosing(_ e: Expression, in root: Expression) -> Expression? {
        var stack = [root]
        while let x = stack.popLast() {
            for c in x.subexpressions {
                if c === e { return x }
                stack.append(c)
            }
        }
        return nil
    }

    private static func matches(_ ruleKey: String, _ segment: [Piece]) -> Bool {
        ruleKey.hasPrefix("$") ? segment == [.wildcard(ruleKey)] : segment == [.text(ruleKey)]
    }

    /// A segment as a rule path spells it: `posts`, `$postId`, `a$b`.
    private static func spell(_ segment: [Piece]) -> String {
        segment.map { p in
            switch p {
            case .text(let s): s
            case .wildcard(let n): n
            }
        }.joined()
    }

    /// Segments as a `child()` argument: `'a/b'`, `$id`, `'a/' + $id`.
    private static func expression(_ segments: [[Piece]]) -> String {
        var parts: [String] = []
        var text = ""
        for (i, seg) in segments.enumerated() {
            if i > 0 { text += "/" }
            for p in seg {
                switch p {
                case .text(let s): text += s
                case .wildcard(let n):
                    if !text.isEmpty { parts.append("'\(text)'") }
                    text = ""
                    parts.append(n)
                }
            }
        }
        if !text.isEmpty { parts.append("'\(text)'") }
        return parts.joined(separator: " + ")
    }

    /// The segments of `root.child(a).child(b)...`, when every argument is known; nil otherwise.
    private static func rootPath(_ e: Expression, _ checked: CheckedExpression) -> [[Piece]]? {
        switch e.kind {
        case .identifier:
            return checked.resolution(of: e) == .root ? [] : nil
        case .call(let callee, let args):
            guard case .call(.child)? = checked.resolution(of: e), case .member(let recv, _, _) = callee.kind,
                let base = rootPath(recv, checked), let arg = args.first, let pieces = pieces(arg, checked)
            else { return nil }
            var out = base
            var current: [Piece] = []
            for p in pieces {
                guard case .text(let s) = p else { current.append(p); continue }
                let parts = s.split(separator: "/", omittingEmptySubsequences: false)
                for (i, part) in parts.enumerated() {
                    if i > 0 {
                        if !current.isEmpty { out.append(current) }
                        current = []
                    }
                    if !part.isEmpty { current.append(.text(String(part))) }
                }
            }
            if !current.isEmpty { out.append(current) }
            return out
        default:
            return nil
        }
    }

    private static func pieces(_ e: Expression, _ checked: CheckedExpression) -> [Piece]? {
        switch e.kind {
        case .string(let s): return [.text(s)]
        case .identifier(let name):
            if case .wildcard? = checked.resolution(of: e) { return [.wildcard(name)] }
            return nil
        case .binary(.add, let l, let r, _):
            guard let a = pieces(l, checked), let b = pieces(r, checked) else { return nil }
            // Merge adjacent text so that 'a' + 'b' reads as 'ab'.
            if case .text(let x)? = a.last, case .text(let y)? = b.first {
                return a.dropLast() + [.text(x + y)] + b.dropFirst()
            }
            return a + b
        default: return nil
        }
    }
}
