import RulesSyntax

/// The reference read/write decision, written from spec §8: `.read`/`.write` along the path
/// only (any true grants, errors do not grant), `.validate` on every non-null node of the merged
/// new tree that the write carries and on the ancestors of each written path, never on null; a
/// multi-path update is one merged tree, all or nothing.
struct ReferenceEngine {
    let rules: RefRuleNode

    func decide(_ op: RefOperation, on old: RefData?, auth: RefInput, now: Double) -> Bool {
        switch op {
        case .read(let path, let query):
            var granted = false
            walk(path) { node, depth, vars in
                if let r = node.read, !granted {
                    var ctx = RefContext(oldRoot: old, newRoot: old, path: Array(path.prefix(depth)), auth: auth, now: now, variables: vars)
                    ctx.query = query ?? RefQuery()
                    granted = Self.isTrue(r, ctx)
                }
            }
            return granted
        case .set(let path, let v): return write([(path, v)], old, auth, now)
        case .push(let path, let v, let key): return write([(path + [key], v)], old, auth, now)
        case .delete(let path): return write([(path, .null)], old, auth, now)
        case .update(let base, let entries):
            return write(entries.map { (base + $0.0, $0.1) }, old, auth, now)
        }
    }

    func write(_ entries: [([String], RefInput)], _ old: RefData?, _ auth: RefInput, _ now: Double) -> Bool {
        // Overlapping paths are refused before any rule runs (decision 7.3).
        for i in entries.indices {
            for j in entries.indices where i != j && entries[j].0.starts(with: entries[i].0) { return false }
        }
        var newRoot = old
        for (path, value) in entries {
            let resolved = RefData.resolved(value, old: RefData.at(old, path), now: now)
            newRoot = RefData.replacing(newRoot, at: path, with: RefData.pruned(resolved))
        }
        for (path, _) in entries {
            var permitted = false
            var valid = true
            walk(path) { node, depth, vars in
                let here = Array(path.prefix(depth))
                let ctx = RefContext(oldRoot: old, newRoot: newRoot, path: here, auth: auth, now: now, variables: vars)
                if let w = node.write, !permitted { permitted = Self.isTrue(w, ctx) }
                if let v = node.validate, RefData.at(newRoot, here) != nil, !Self.isTrue(v, ctx) { valid = false }
                if depth == path.count {
                    valid = valid && validateBelow(node, here, vars, old, newRoot, auth, now)
                }
            }
            if !permitted || !valid { return false }
        }
        return true
    }

    /// `.validate` on every non-null location strictly below `path` in the new tree.
    func validateBelow(_ node: RefRuleNode, _ path: [String], _ vars: [String: String], _ old: RefData?, _ newRoot: RefData?, _ auth: RefInput, _ now: Double) -> Bool {
        guard case .object(let members)? = RefData.at(newRoot, path) else { return true }
        for key in members.keys {
            guard let (child, binding) = node.step(key) else { continue }
            var v = vars
            if let (name, k) = binding { v[name] = k }
            let here = path + [key]
            if let rule = child.validate {
                let ctx = RefContext(oldRoot: old, newRoot: newRoot, path: here, auth: auth, now: now, variables: v)
                if !Self.isTrue(rule, ctx) { return false }
            }
            if !validateBelow(child, here, v, old, newRoot, auth, now) { return false }
        }
        return true
    }

    /// Calls `body` for the rule node at each depth 0...path.count that exists.
    func walk(_ path: [String], _ body: (RefRuleNode, Int, [String: String]) -> Void) {
        var node = rules
        var vars: [String: String] = [:]
        body(node, 0, vars)
        for (i, key) in path.enumerated() {
            guard let (next, binding) = node.step(key) else { return }
            if let (name, k) = binding { vars[name] = k }
            node = next
            body(node, i + 1, vars)
        }
    }

    static func outcome(_ text: String, _ ctx: RefContext) -> Result<Bool, RefError> {
        guard let root = ExpressionParser.parse(text).root else { return .failure(RefError("does not parse")) }
        return ReferenceInterpreter(context: ctx).evaluate(root)
    }

    static func isTrue(_ text: String, _ ctx: RefContext) -> Bool {
        if case .success(true) = outcome(text, ctx) { return true }
        return false
    }
}
