import RulesCompiler
import RulesSyntax

/// The decision returned: allowed or denied with its reason and, when explaining, its
/// explanation; and the checks on update paths.
extension Evaluator {
    /// `title` is only built when explaining: a plain decision must not pay for the text.
    // Mutating, as every caller is: a non-mutating method called from a mutating one gets a
    // copy of the whole evaluator (every array and table retained, then released).
    /// A budget that ran out decides, unless the operation was denied before it did (as the
    /// decision without an explanation stops there); `root` is then the tree before a write
    /// (a write is not allowed once the budget has run out).
    // Inlined, so that a plain decision never materializes the title's closure.
    @inline(__always)
    mutating func finish(_ title: @autoclosure () -> String, _ allowed: Bool, _ root: DataNode?, _ reason: DenialReason?) -> Decision {
        if exhaustion != nil && !deniedBeforeExhaustion { return finishExhausted(title(), root) }
        if !explain { return Decision(allowed: allowed, newRoot: root, denial: allowed ? nil : reason, explanation: nil) }
        var explanation = Explanation(operation: title(), allowed: allowed, rejection: nil, evaluations: log)
        explanation.omittedEvaluations = recording?.omittedEvaluations ?? 0
        if !allowed || decisive.map({ log.indices.contains($0) && log[$0].outcome.isTrue }) == true {
            explanation.decisiveIndex = decisive
        }
        let unredacted = redaction != nil ? Optional(explanation.unredacted(recording?.unredactedLog ?? [])) : nil
        if redaction != nil { explanation.redact(denied: !allowed) }
        var decision = Decision(allowed: allowed, newRoot: root, denial: allowed ? nil : reason, explanation: notConsulted(explanation, allowed))
        decision.unredactedExplanation = unredacted.map { notConsulted($0, allowed) }
        return decision
    }

    /// An explanation with the rules a denial did not consult.
    private func notConsulted(_ explanation: Explanation, _ allowed: Bool) -> Explanation {
        var explanation = explanation
        if !allowed && deniedAtNode >= 0 && explanation.decisive?.kind != .validate {
            explanation.rulesNotConsulted = rulesBelow(deniedAtNode, kind: readDepth >= 0 || explanation.operation.hasPrefix("read ") ? .read : .write)
        }
        return explanation
    }

    /// The `.read` or `.write` rules below rule node `node` (not its own), shallowest first: at
    /// most ``Explanation/rulesNotConsultedShown`` of them, then `and more` if there are more.
    func rulesBelow(_ node: Int32, kind: RuleKind) -> [String] {
        var found: [String] = []
        var queue: [Int32] = []
        func children(_ index: Int32) {
            let n = ruleset.nodes[Int(index)]
            for key in n.literals.keys.sorted() { queue.append(n.literals[key]!) }
            if n.wildcard >= 0 { queue.append(n.wildcard) }
        }
        children(node)
        var next = 0
        // Bounded: a few rules are named, a few thousand nodes looked at.
        while next < queue.count && next < 4096 {
            let n = ruleset.nodes[Int(queue[next])]
            next += 1
            let rule = kind == .read ? n.read : n.write
            if rule >= 0 {
                if found.count == Explanation.rulesNotConsultedShown { found.append("and more"); break }
                found.append(ruleset.rules[Int(rule)].rulePath)
            }
            children(queue[next - 1])
        }
        return found
    }

    /// ``finish(_:_:_:_:)`` for a decision whose budget ran out: denied, for that reason.
    @inline(never)
    mutating func finishExhausted(_ title: String, _ root: DataNode?) -> Decision {
        let reason = DenialReason.text(exhaustion ?? "evaluation budget exhausted")
        guard explain else { return Decision(allowed: false, newRoot: root, denial: reason, explanation: nil, exhausted: true) }
        decisive = logIndex(ofEvaluation: exhaustedEvaluation)
        var explanation = Explanation(operation: title, allowed: false, rejection: nil, evaluations: log)
        explanation.omittedEvaluations = recording?.omittedEvaluations ?? 0
        explanation.decisiveIndex = decisive
        let unredacted = redaction != nil ? Optional(explanation.unredacted(recording?.unredactedLog ?? [])) : nil
        if redaction != nil { explanation.redact(denied: true) }
        var decision = Decision(allowed: false, newRoot: root, denial: reason, explanation: explanation, exhausted: true)
        decision.unredactedExplanation = unredacted
        return decision
    }

    mutating func reject(_ title: @autoclosure () -> String, _ root: DataNode?, _ why: String) -> Decision {
        var explanation = explain ? Explanation(operation: title(), allowed: false, rejection: why, evaluations: log) : nil
        explanation?.omittedEvaluations = recording?.omittedEvaluations ?? 0
        let unredacted = redaction != nil ? explanation?.unredacted(recording?.unredactedLog ?? []) : nil
        if redaction != nil { explanation?.redact(denied: true) }
        var decision = Decision(allowed: false, newRoot: root, reason: why, explanation: explanation, isRejected: true)
        decision.unredactedExplanation = unredacted
        return decision
    }

    func display(_ keys: [String]) -> String { "/" + keys.joined(separator: "/") }

    /// The first pair of paths where one is a prefix of (or equal to) the other.
    ///
    /// Keys compare by their bytes (``KeyOrder``), as the database stores them: Swift's `String`
    /// comparison would call "é" and "e\u{301}" the same key.
    static func overlap(_ entries: [([String], DataInput)]) -> ([String], [String])? {
        // A few paths (most updates) are compared pair by pair, without sorting; only when two
        // overlap is the sorted pass below run, to name the same pair for any number of paths.
        if entries.count <= 16 {
            var any = false
            for i in entries.indices where !any {
                for j in entries.indices where j > i {
                    let a = DataPath(keys: entries[i].0), b = DataPath(keys: entries[j].0)
                    if a.isPrefix(of: b) || b.isPrefix(of: a) { any = true; break }
                }
            }
            if !any { return nil }
        }
        let sorted = entries.map(\.0).sorted { $0.lexicographicallyPrecedes($1) { KeyOrder.compare($0, $1) < 0 } }
        for i in sorted.indices.dropFirst() {
            let a = sorted[i - 1], b = sorted[i]
            if DataPath(keys: a).isPrefix(of: DataPath(keys: b)) { return (a, b) }
        }
        return nil
    }

    /// Whether one of the `validated` entries has the ancestor of `keys` at `depth` on its own
    /// path (the same keys by their bytes), so its `.validate` rule has already run.
    static func validatedBefore(depth: Int, of keys: [String], by validated: [Int], _ entries: [([String], DataInput)]) -> Bool {
        for j in validated {
            let other = entries[j].0
            guard depth <= other.count, depth <= keys.count else { continue }
            var same = true
            var i = 0
            while i < depth {
                if !KeyOrder.sameBytes(other[i], keys[i]) { same = false; break }
                i += 1
            }
            if same { return true }
        }
        return false
    }

    /// The number of levels below a node (0 for a leaf), counting no further than `limit`.
    static func height(_ node: DataNode, limit: Int) -> Int {
        if node.value != nil || limit <= 0 { return 0 }
        var h = 0
        node.forEachChild { _, c in
            if h < limit { h = max(h, 1 + height(c, limit: limit - 1)) }
        }
        return h
    }
}
