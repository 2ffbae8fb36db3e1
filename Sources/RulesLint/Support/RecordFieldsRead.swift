import RulesCompiler
import RulesSyntax

extension RuleNode {
    /// The fields of this location's value that its own rules read: `newData.child('f')` (the
    /// first key of a path) and the names `newData.hasChildren([...])` requires. Two lints ask it
    /// of a `$wildcard`'s records.
    var newDataFieldsRead: Set<String> {
        var out = Set<String>()
        for kind in RuleKind.allCases {
            guard case .expression(let c)? = rule(kind)?.body else { continue }
            var stack = [c.root]
            while let e = stack.popLast() {
                if case .call(let callee, let args) = e.kind, let recv = callee.receiver, let p = WitnessPlanner.newDataPath(recv, c), p.isEmpty,
                    let a = args.first
                {
                    if case .call(.child)? = c.resolution(of: e), case .string(let s) = a.kind { out.insert(String(s.split(separator: "/").first ?? "")) }
                    if case .call(.hasChildren)? = c.resolution(of: e), case .array(let items) = a.kind {
                        for i in items { if case .string(let s) = i.kind { out.insert(s) } }
                    }
                }
                stack += e.subexpressions
            }
        }
        out.remove("")
        return out
    }
}
