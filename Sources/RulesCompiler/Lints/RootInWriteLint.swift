import RulesSyntax

/// `root-in-write`: in a `.write` or `.validate`, a `root.child(...)` path that lands on or below
/// the rule's own location. `root` is the tree before the write, so such a path reads the old
/// value of data the write is changing.
enum RootInWriteLint {
    /// A piece of a `child()` path: literal text or a `$wildcard`.
    private enum Piece: Equatable {
        case text(String)
        case wildcard(String)
    }

    static func check(_ checked: CheckedExpression, node: RuleNode, report: (SourceRange, String) -> Void) {
        visit(checked.root, checked, node, report)
    }

    private static func visit(_ e: Expression, _ checked: CheckedExpression, _ node: RuleNode, _ report: (SourceRange, String) -> Void) {
        if let segments = rootPath(e, checked), !segments.isEmpty {
            let path = node.path
            if segments.count >= max(path.count, 1), zip(path, segments).allSatisfy({ matches($0, $1) }) {
                let rest = Array(segments.dropFirst(path.count))
                let suffix = rest.isEmpty ? "" : ".child(\(expression(rest)))"
                let reads = "/" + segments.map(spell).joined(separator: "/")
                report(checked.fileRange(of: e),
                    "root is the tree before the write: this reads the old value of \(reads), inside the location this rule judges (\(node.pathDescription)), the same as data\(suffix); if the new value is meant, use newData\(suffix).")
                return
            }
        }
        for c in e.subexpressions { visit(c, checked, node, report) }
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
