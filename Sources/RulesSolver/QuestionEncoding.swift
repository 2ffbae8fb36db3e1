import RulesCompiler

/// One question encoded in one mode: the cascade of the location's rules as a condition over the
/// symbolic world, the question's facts, and the tree constraints; and the way back from a model
/// to a concrete witness.
struct QuestionEncoding {
    let world: SymbolicWorld
    let scope: QuestionScope
    /// The location's keys as terms.
    let segments: [Term]
    let constraints: [Term]
    private let question: AccessQuestion
    private var smt: SMT { world.smt }

    init(smt: SMT, question: AccessQuestion, mode: SolverMode) {
        self.question = question
        let world = SymbolicWorld(smt: smt, mode: mode)
        let scope = QuestionScope(smt: smt, principal: question.principal, now: question.now, allowQuery: question.allowQuery && question.operation == .read, world: world)
        self.world = world
        self.scope = scope
        var segments: [Term] = []
        for (i, node) in question.nodes.enumerated().dropFirst() {
            let key = node.path[node.path.count - 1]
            segments.append(Self.key(key, sibling: question.nodes[i - 1], world: world, scope: scope, given: question.keys))
        }
        self.segments = segments
        var goal: [Term] = []
        let nodes = question.nodes
        let location = world.join(segments)
        switch question.operation {
        case .read:
            goal.append(smt.or(nodes.indices.map { Self.holds(nodes[$0].read, world, scope, Array(segments.prefix($0))) }))
        case .set, .delete:
            world.writePath = location
            world.deletes = question.operation == .delete
            goal.append(smt.or(nodes.indices.map { Self.holds(nodes[$0].write, world, scope, Array(segments.prefix($0))) }))
            for i in nodes.indices {
                guard let rule = nodes[i].validate else { continue }
                let path = Array(segments.prefix(i))
                goal.append(smt.implies(smt.not(smt.isNull(world.value(.after, world.join(path)))), Self.holds(rule, world, scope, path)))
            }
            if question.operation == .set {
                goal.append(smt.not(smt.isNull(world.value(.after, location))))
                if let last = nodes.last { goal += Self.validations(below: last, segments, depth: 0, world, scope) }
            }
        }
        if let exists = question.existsBefore {
            let v = world.value(.before, location)
            goal.append(exists ? smt.not(smt.isNull(v)) : smt.isNull(v))
        }
        for fact in question.facts {
            var path: [Term] = []
            for s in fact.path {
                switch s {
                case .key(let k): path.append(smt.string(k))
                case .wildcard(let n): path.append(scope.keys[n] ?? Self.freeKey(n, world))
                case .caller: path.append(scope.uid ?? smt.string(Self.uid(question.principal) ?? ""))
                }
            }
            goal.append(smt.eq(world.value(.before, world.join(path)), scope.constant(fact.value)))
        }
        // Given data and values are looked at whole, so that their nodes are the tree's.
        if let data = question.data {
            for p in Self.paths(data, base: smt.string(""), smt) { _ = world.value(.before, p) }
            world.givenBefore = true
        }
        if let value = question.value, question.operation == .set { for p in Self.paths(value, base: location, smt) { _ = world.value(.after, p) } }
        var all = goal + world.treeConstraints()
        if let data = question.data {
            for p in world.beforePaths { all.append(smt.eq(world.value(.before, p), Self.lookup(data, p, base: smt.string(""), scope))) }
        }
        if let value = question.value, question.operation == .set {
            for p in world.afterPaths {
                let under = smt.or(smt.eq(p, location), smt.prefix(smt.concat([location, smt.string("/")]), of: p))
                all.append(smt.implies(under, smt.eq(world.value(.after, p), Self.lookup(value, p, base: location, scope))))
            }
        }
        if let name = question.unnamed {
            for p in world.beforePaths {
                let v = world.value(.before, p)
                // Not in a key, nor in a composite key (`mallory|alice|doc`), nor in a value.
                let named = smt.reConcat([smt.reAll, smt.reLiteral(name), smt.reAll])
                all.append(smt.implies(smt.not(smt.isNull(v)), smt.not(smt.inRegex(p, named))))
                all.append(smt.implies(smt.isStr(v), smt.not(smt.inRegex(smt.strOf(v), named))))
            }
        }
        constraints = all + world.constraints
    }

    /// The paths of the nodes of `tree`, placed at `base`.
    private static func paths(_ tree: SolverTree, base: Term, _ smt: SMT) -> [Term] {
        guard case .object(let m) = tree else { return [base] }
        return [base] + m.flatMap { paths($0.value, base: smt.concat([base, smt.string("/" + $0.key)]), smt) }
    }

    /// The value of `tree` (placed at `base`) at the path `p`: a chain of comparisons with each of
    /// its nodes' paths, null when none is equal.
    private static func lookup(_ tree: SolverTree, _ p: Term, base: Term, _ scope: QuestionScope) -> Term {
        let smt = scope.smt
        var nodes: [(Term, Term)] = []
        func walk(_ t: SolverTree, _ at: Term) {
            switch t {
            case .leaf(let v): nodes.append((at, scope.constant(v)))
            case .object(let m):
                guard !m.isEmpty else { return }
                nodes.append((at, smt.obj))
                for (k, child) in m { walk(child, smt.concat([at, smt.string("/" + k)])) }
            }
        }
        walk(tree, base)
        return nodes.reversed().reduce(smt.null) { rest, node in smt.ite(smt.eq(p, node.0), node.1, rest) }
    }

    private static func uid(_ p: SolverPrincipal) -> String? {
        if case .user(let uid, _, _) = p { return uid }
        return nil
    }

    private static func freeKey(_ name: String, _ world: SymbolicWorld) -> Term {
        let k = world.stringVariable(name)
        world.constraints.append(world.validKey(k))
        return k
    }

    /// The term of a path key: a literal, a given key, or a free key that no literal sibling
    /// takes (a literal child wins over the wildcard).
    private static func key(_ key: String, sibling parent: RuleNode, world: SymbolicWorld, scope: QuestionScope, given: [String: String]) -> Term {
        let smt = world.smt
        guard key.hasPrefix("$") else { return smt.string(key) }
        if let k = scope.keys[key] { return k }
        let term: Term
        if let g = given[key] {
            term = smt.string(g)
        } else {
            term = freeKey(key, world)
            for (literal, _) in parent.literalChildren { world.constraints.append(smt.not(smt.eq(term, smt.string(literal)))) }
        }
        scope.keys[key] = term
        return term
    }

    /// The condition that `rule` at `path` is true (false when there is no rule).
    static func holds(_ rule: Rule?, _ world: SymbolicWorld, _ scope: QuestionScope, _ path: [Term]) -> Term {
        guard let rule else { return world.smt.false }
        switch rule.body {
        case .constant(let b): return world.smt.bool(b)
        case .invalid: return world.smt.false
        case .expression(let c):
            var e = ExpressionEncoder(world: world, scope: scope, checked: c, location: path)
            return e.holds()
        }
    }

    /// The `.validate` rules of the written value below `node`: each where the value is not null,
    /// to ``SolverBounds/depthBelow`` levels, one child per `$wildcard`.
    private static func validations(below node: RuleNode, _ path: [Term], depth: Int, _ world: SymbolicWorld, _ scope: QuestionScope) -> [Term] {
        guard depth < SolverBounds.depthBelow else { return [] }
        let smt = world.smt
        var out: [Term] = []
        var children: [(Term, RuleNode)] = node.literalChildren.map { (smt.string($0.key), $0.node) }
        if let (name, child) = node.wildcard {
            let saved = scope.keys[name]
            let k = freeKey(name, world)
            for (literal, _) in node.literalChildren { world.constraints.append(smt.not(smt.eq(k, smt.string(literal)))) }
            scope.keys[name] = k
            children.append((k, child))
            var inner = [Term]()
            let p = path + [k]
            if let rule = child.validate {
                inner.append(smt.implies(smt.not(smt.isNull(world.value(.after, world.join(p)))), holds(rule, world, scope, p)))
            }
            inner += validations(below: child, p, depth: depth + 1, world, scope)
            scope.keys[name] = saved
            out += inner
            children.removeLast()
        }
        for (k, child) in children {
            let p = path + [k]
            if let rule = child.validate {
                out.append(smt.implies(smt.not(smt.isNull(world.value(.after, world.join(p)))), holds(rule, world, scope, p)))
            }
            out += validations(below: child, p, depth: depth + 1, world, scope)
        }
        return out
    }

    // MARK: - Back from a model

    func witness(_ model: SMTModel) -> SolverWitness {
        let path = segments.map { model.string($0) ?? "" }
        var data = SolverTree.object([:])
        for p in world.beforePaths {
            guard let text = model.string(p), let keys = Self.keys(text) else { continue }
            let v = model.value(world.value(.before, p))
            if case .null = v { continue }
            if case .object = v { continue }
            data = data.setting(v, at: keys[...])
        }
        var value: SolverTree?
        if question.operation == .set {
            var written = SolverTree.object([:])
            for p in world.afterPaths {
                guard let text = model.string(p), let keys = Self.keys(text), keys.count >= path.count, Array(keys.prefix(path.count)) == path else { continue }
                let v = model.value(world.value(.after, p))
                if case .null = v { continue }
                if case .object = v { continue }
                written = written.setting(v, at: keys[path.count...])
            }
            value = written.pruned ?? .leaf(.bool(true))
        }
        var out = SolverWitness(path: path, data: data.pruned, value: value)
        out.uid = scope.uid.flatMap { model.string($0) }
        for (name, c) in scope.claims {
            let v = model.value(c)
            if v != .null, v != .object { out.claims[name] = v }
        }
        for (field, t) in scope.queryFields {
            let v = model.value(t)
            switch v {
            case .null, .object, .bool(false): continue
            default: out.query[field.rawValue] = v
            }
        }
        return out
    }

    /// The keys of a path text (nil when it is not a valid path).
    private static func keys(_ text: String) -> [String]? {
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { return nil }
        let keys = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for k in keys where k.isEmpty || k.contains(where: { ".#$[]".contains($0) }) { return nil }
        return keys
    }

    /// A condition that excludes the model's data, value and keys.
    func excluding(_ model: SMTModel) -> Term {
        var same: [Term] = []
        for p in world.beforePaths {
            if let v = model.eval(world.value(.before, p)) { same.append(smt.eq(world.value(.before, p), v)) }
        }
        for p in world.afterPaths {
            if let v = model.eval(world.value(.after, p)) { same.append(smt.eq(world.value(.after, p), v)) }
        }
        for s in segments {
            if let v = model.eval(s) { same.append(smt.eq(s, v)) }
        }
        return smt.not(smt.and(same))
    }
}
