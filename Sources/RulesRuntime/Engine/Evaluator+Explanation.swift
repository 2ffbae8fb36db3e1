import RulesCompiler
import RulesSyntax

/// Explanation recording: each evaluation with its values, the deciding false part, its `||`
/// alternatives and what made them false.
extension Evaluator {
    typealias PendingEvaluation = ExplanationRecording.Pending

    mutating func record(_ ruleIndex: Int, _ outcome: RuleOutcome, _ dataEntry: Int32) {
        let stored = tracer.takeStored()
        let snapshots = tracer.takeSnapshotEntries()
        let recorded = tracer.take()
        guard let recording else { return }
        let evaluation = PendingEvaluation(
            id: recording.evaluationCount, rule: ruleIndex, outcome: outcome, dataEntry: dataEntry, wildcardKeys: wildcardKeys,
            recorded: recorded, stored: stored, snapshots: snapshots)
        recording.evaluationCount += 1
        if log.count < recording.limits.maxEvaluations && recording.recordedBytes < recording.limits.maxValueBytes {
            let built = build(evaluation)
            recording.recordedBytes += built.valueBytes
            log.append(built)
            if recording.redact { recording.unredactedLog.append(build(evaluation, redacting: false)) }
        } else {
            // Kept aside until the next evaluation, in case it decides.
            recording.pending = evaluation
            recording.omittedEvaluations += 1
        }
    }

    /// The index in `log` of evaluation number `id` (see `evaluationCount`), recording it first
    /// if it is the last evaluation and was not kept; nil when not explaining.
    @inline(never)
    mutating func logIndex(ofEvaluation id: Int?) -> Int? {
        guard explain, let id, id >= 0 else { return nil }
        if let last = log.last, last.id == id { return log.count - 1 }
        if let recording, let p = recording.pending, p.id == id {
            recording.pending = nil
            recording.omittedEvaluations -= 1
            log.append(build(p))
            if recording.redact { recording.unredactedLog.append(build(p, redacting: false)) }
            return log.count - 1
        }
        // Kept evaluations are in the order of their numbers.
        var low = 0, high = log.count
        while low < high {
            let mid = (low + high) / 2
            if log[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low < log.count && log[low].id == id ? low : nil
    }

    /// An evaluation for the explanation; redacted when explaining for the caller, unless
    /// `redacting` is false (the host's own copy, from the same run).
    mutating func build(_ p: PendingEvaluation, redacting: Bool = true) -> RuleEvaluation {
        let rule = ruleset.rules[p.rule]
        let file = ruleset.file
        var outcome = p.outcome
        var stored = p.stored
        var recorded = p.recorded
        var values: [(text: String, value: String)] = []
        var source = ""
        var falsePart: String?
        var deciding: (value: String, detail: String?)?
        var excerpt: SourceExcerpt?
        var alternatives: [FalseAlternative] = []
        var readsUnreadable = false
        var withheldError = false
        if let expr = rule.expression {
            source = Self.oneLine(expr.source.text)
            var nodes: [Expression] = []
            Self.collect(expr.root, into: &nodes)
            var taint: Redaction.Analysis?
            if redacting, let recording, recording.redaction != nil {
                let analysis = recording.redaction!.analyze(expr.root, recorded: p.recorded, snapshots: p.snapshots, snaps: snaps)
                recorded = analysis.redacted(p.recorded, snaps: snaps)
                for id in analysis.tainted { stored[id] = nil }
                readsUnreadable = analysis.readsUnreadable
                if readsUnreadable, case .error = outcome { withheldError = true }
                taint = analysis
            }
            // An object `val()` returned is shown by the keys of the snapshot it was called on.
            for n in nodes where recorded[Int32(n.id)] == Value.object.description {
                if case .call(let callee, let arguments) = n.kind, arguments.isEmpty,
                   case .member(let object, "val", _) = callee.kind, let here = stored[Int32(object.id)] ?? nil {
                    recorded[Int32(n.id)] = ExplanationFormat.objectSummary(here)
                }
            }
            if case .value(false) = outcome, let node = Self.decidingFalse(expr.root, recorded, known: true, strict: taint != nil) {
                if node !== expr.root { falsePart = Self.oneLine(file.text(of: expr.fileRange(of: node))) }
                // The part that decided is false (known, or implied by the outcome), even when
                // what it compared is withheld.
                var value = recorded[Int32(node.id)] ?? "false"
                if taint != nil, p.recorded[Int32(node.id)] ?? "false" == "false" { value = "false" }
                deciding = (value, Self.falseDetail(node, expr, file, recorded, stored))
                excerpt = SourceExcerpt(file: file, range: expr.fileRange(of: node))
                for part in Self.falseAlternatives(expr.root, recorded, strict: taint != nil) {
                    var value = recorded[Int32(part.id)] ?? "false"
                    if taint != nil, p.recorded[Int32(part.id)] ?? "false" == "false" { value = "false" }
                    alternatives.append(FalseAlternative(
                        part: Self.oneLine(file.text(of: expr.fileRange(of: part))), value: value,
                        detail: Self.falseDetail(part, expr, file, recorded, stored)))
                }
            }
            for n in nodes.sorted(by: { ($0.range.start, -$0.range.end) < ($1.range.start, -$1.range.end) }) {
                guard let v = recorded[Int32(n.id)] else { continue }
                if case .boolean = n.kind { continue }
                if case .number = n.kind { continue }
                if case .string = n.kind { continue }
                let text = Self.oneLine(file.text(of: expr.fileRange(of: n)))
                values.append((text, v))
            }
        } else if let c = rule.constant {
            source = c ? "true" : "false"
            if !c { excerpt = SourceExcerpt(file: file, range: rule.range) }
        }
        var bindings: [(name: String, value: String)] = []
        let names = Self.wildcardNames(ruleset, rule)
        for (i, key) in p.wildcardKeys.enumerated() where i < names.count {
            bindings.append((names[i], key))
        }
        var errorLocation: SourceLocation?
        if case .error(let e) = outcome {
            if withheldError && p.id != exhaustedEvaluation {
                // What went wrong, and where, could tell what the rule read.
                outcome = .error(RuntimeError("the rule failed (the error is withheld: the rule read data the caller may not read)", range: rule.range))
                excerpt = SourceExcerpt(file: file, range: rule.range)
            } else {
                errorLocation = file.location(of: e.range)
                excerpt = SourceExcerpt(file: file, range: e.range)
            }
        }
        var evaluation = RuleEvaluation(
            id: p.id, kind: rule.kind, dataPath: display(snaps.path(of: p.dataEntry)), rulePath: rule.rulePath,
            file: file.path, location: file.location(of: rule.range), outcome: outcome, errorLocation: errorLocation,
            bindings: bindings, source: source, values: values, falsePart: falsePart,
            decidingValue: deciding?.value, falseDetail: deciding?.detail, excerpt: excerpt)
        evaluation.readsUnreadable = readsUnreadable
        evaluation.falseAlternatives = alternatives
        return evaluation
    }

    /// What made the deciding part of a false rule false, in a few words: the keys a
    /// `hasChildren([...])` missed (`missing 'body'`), the two values a comparison compared
    /// (`'alice' === 'bob'`), or what a method was called on (`newData = snapshot /a = 5`);
    /// nil when there is nothing to add.
    static func falseDetail(_ node: Expression, _ expr: CheckedExpression, _ file: SourceFile,
                            _ recorded: [Int32: String], _ stored: [Int32: DataNode?]) -> String? {
        let width = ExplanationFormat.headlineValueWidth
        func value(_ e: Expression) -> String? {
            if let v = recorded[Int32(e.id)] { return v }
            switch e.kind {
            case .string(let s): return Value.quote(s)
            case .number(let n): return JSNumberFormatter.string(n)
            case .boolean(let b): return b ? "true" : "false"
            case .null: return "null"
            default: return nil
            }
        }
        switch node.kind {
        case .binary(let op, let left, let right, _):
            guard let l = value(left), let r = value(right) else { return nil }
            return "\(ExplanationFormat.clip(l, width)) \(op.rawValue) \(ExplanationFormat.clip(r, width))"
        case .call(let callee, let arguments):
            guard case .member(let object, let name, _) = callee.kind else { return nil }
            if name == "hasChildren", let list = arguments.first, case .array(let items) = list.kind,
               let here = stored[Int32(object.id)] {
                // The names as `hasChildren` reads them: a name with slashes is a path.
                var missing: [String] = []
                for item in items {
                    guard case .string(let key) = item.kind else { return nil }
                    let keys = key.split(separator: "/").map(String.init)
                    if keys.isEmpty || here?.descendant(keys) == nil { missing.append(Value.quote(key, limit: width)) }
                }
                if !missing.isEmpty { return "missing " + missing.joined(separator: ", ") }
            }
            guard let v = value(object) else { return nil }
            return "\(ExplanationFormat.clip(oneLine(file.text(of: expr.fileRange(of: object))), width)) = \(v)"
        default:
            return nil
        }
    }

    static func collect(_ e: Expression, into out: inout [Expression]) {
        out.append(e)
        switch e.kind {
        case .member(let o, _, _): collect(o, into: &out)
        case .index(let o, let i): collect(o, into: &out); collect(i, into: &out)
        case .call(let c, let args):
            collect(c, into: &out)
            for a in args { collect(a, into: &out) }
        case .unary(_, let x): collect(x, into: &out)
        case .binary(_, let l, let r, _): collect(l, into: &out); collect(r, into: &out)
        case .logical(_, let xs): for x in xs { collect(x, into: &out) }
        case .conditional(let c, let a, let b): collect(c, into: &out); collect(a, into: &out); collect(b, into: &out)
        case .array(let xs): for x in xs { collect(x, into: &out) }
        default: break
        }
    }

    /// The sub-expression that made a false rule false: down `&&` to its first false operand,
    /// down `||` to its first alternative, down `?:` to the branch taken, stopping at anything
    /// else (a comparison, a call, a negation).
    ///
    /// `strict` (for redacted explanations, where withheld values are unknown): down `&&` only
    /// through operands known to be true, to the first known false one, or to the last one when
    /// all before it were true (it must then be false); at an operand whose value is withheld,
    /// the whole `&&` is the part (which operand was false would tell what the withheld one was).
    ///
    /// `stopAtOr`: stop at the first `||` on that way and return it (its alternatives are then
    /// all false, and are shown one by one: see ``falseAlternatives(_:_:strict:)``).
    static func decidingFalse(_ node: Expression, _ values: [Int32: String], known: Bool = false, strict: Bool = false,
                              stopAtOr: Bool = false) -> Expression? {
        guard known || truth(node, values) == false else { return nil }
        switch node.kind {
        case .logical(.and, let operands) where strict:
            for (i, operand) in operands.enumerated() {
                switch truth(operand, values) {
                case true?: continue
                case false?: return decidingFalse(operand, values, strict: true, stopAtOr: stopAtOr) ?? operand
                case nil:
                    return i == operands.count - 1
                        ? decidingFalse(operand, values, known: true, strict: true, stopAtOr: stopAtOr) ?? operand : node
                }
            }
            return node
        case .logical(.and, let operands):
            guard let first = operands.first(where: { truth($0, values) == false }) else { return node }
            return decidingFalse(first, values, stopAtOr: stopAtOr) ?? first
        case .logical(.or, let operands):
            if stopAtOr { return node }
            guard let first = operands.first else { return node }
            return decidingFalse(first, values, known: strict, strict: strict) ?? first
        case .conditional(let condition, let yes, let no):
            guard let taken = truth(condition, values) else { return node }
            return decidingFalse(taken ? yes : no, values, known: strict, strict: strict, stopAtOr: stopAtOr) ?? node
        default:
            return node
        }
    }

    /// When the way down a false rule to the part that decided (see ``decidingFalse``) meets an
    /// `||`, every one of its alternatives, each followed down to its own deciding part (an
    /// alternative that is itself an `||` gives its own alternatives, in order); empty when no
    /// `||` decided. A false `||` evaluated all its alternatives and each was false, so each is
    /// known false even in a redacted explanation (which then withholds their values).
    static func falseAlternatives(_ root: Expression, _ values: [Int32: String], strict: Bool) -> [Expression] {
        guard let or = decidingFalse(root, values, known: true, strict: strict, stopAtOr: true),
              case .logical(.or, let operands) = or.kind else { return [] }
        var out: [Expression] = []
        func add(_ operands: [Expression]) {
            for operand in operands {
                let part = decidingFalse(operand, values, known: true, strict: strict, stopAtOr: true) ?? operand
                if case .logical(.or, let inner) = part.kind { add(inner) } else { out.append(part) }
            }
        }
        add(operands)
        return out
    }

    /// A sub-expression's boolean value as evaluated: recorded by the tracer, or (for `&&`,
    /// `||`, `!` and `?:`, which have no instruction of their own) derived from its operands;
    /// nil when unknown or not a boolean.
    static func truth(_ node: Expression, _ values: [Int32: String]) -> Bool? {
        if let v = values[Int32(node.id)] { return v == "true" ? true : (v == "false" ? false : nil) }
        switch node.kind {
        case .logical(.and, let operands):
            var all = true
            for o in operands {
                switch truth(o, values) {
                case false?: return false
                case nil: all = false
                default: break
                }
            }
            return all ? true : nil
        case .logical(.or, let operands):
            var all = true
            for o in operands {
                switch truth(o, values) {
                case true?: return true
                case nil: all = false
                default: break
                }
            }
            return all ? false : nil
        case .unary(.not, let operand):
            return truth(operand, values).map { !$0 }
        case .conditional(let condition, let yes, let no):
            guard let c = truth(condition, values) else { return nil }
            return truth(c ? yes : no, values)
        default:
            return nil
        }
    }

    /// The wildcard names on a rule's path, outermost first.
    static func wildcardNames(_ ruleset: CompiledRuleset, _ rule: CompiledRule) -> [String] {
        rule.rulePath.split(separator: "/").filter { $0.hasPrefix("$") }.map(String.init)
    }

    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: " \t") }.joined(separator: " ")
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
