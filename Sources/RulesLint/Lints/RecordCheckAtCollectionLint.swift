import RulesCompiler
import RulesSyntax

extension LintCode {
    /// `record-check-at-collection`: see ``RecordCheckAtCollectionLint``.
    public static let recordCheckAtCollection = LintCode(declaring: "record-check-at-collection")
}

/// `record-check-at-collection`: a `.write` or `.validate` at a collection (a location with a
/// `$wildcard` child) reads `newData.child('f')` where `f` is a field of the records below (the
/// wildcard has a literal child `f`, or its rules read `newData.child('f')` or require it with
/// `hasChildren`), and the collection has no literal child `f`. The rule checks a record whose key
/// is `f`, not the field of each record: ordinary writes fail it, and writing that phantom record
/// makes it pass for every record. One finding per rule.
enum RecordCheckAtCollectionLint: StaticLint {
    static let code = LintCode.recordCheckAtCollection
    static let category = LintCategory.security
    static let securitySeverity: Double? = 7.5
    static let summary = "A record's field checked at the collection above the records."
    static let help =
        "At a location whose children are $wildcard records, newData.child('field') is the record whose key is 'field', not the field of each record. Real writes fail the rule, and writing that phantom record makes it pass for every record. Move the rule into the $wildcard."

    static func check(_ context: inout LintContext) -> [LintFinding] {
        var out: [LintFinding] = []
        check(context.tree) { out.append($0) }
        return out
    }

    private static func check(_ root: RuleNode, report: (LintFinding) -> Void) {
        root.forEachNode { node in
            guard let (name, record) = node.wildcard else { return }
            let fields = recordFields(record)
            guard !fields.isEmpty else { return }
            for kind in [RuleKind.write, .validate] {
                guard case .expression(let c)? = node.rule(kind)?.body else { continue }
                guard let (use, field) = firstFieldUse(c, fields: fields, node: node) else { continue }
                report(LintFinding(
                    code: .recordCheckAtCollection,
                    message: "This reads newData.child('\(field)') at \(node.pathDescription), whose children are the \(name) records: it checks a record whose key is '\(field)', not the \(field) of each record. Writes of real records fail it, and whoever writes \(node.pathDescription)/\(field) makes it pass for every record. Move the rule into \(name) (\(node.pathDescription)/\(name)).",
                    range: c.fileRange(of: use), anchor: "\(node.pathDescription) \(kind.key) \(field)",
                    witnessCandidates: candidates(node, record, field: field, rule: c)))
            }
        }
    }

    /// The field names the records' rules use.
    private static func recordFields(_ record: RuleNode) -> Set<String> {
        record.newDataFieldsRead.union(record.literalChildren.map(\.key).filter { !$0.isEmpty })
    }

    /// The first `newData.child('f')` in the rule with `f` a record field and no literal child `f`.
    private static func firstFieldUse(_ c: CheckedExpression, fields: Set<String>, node: RuleNode) -> (Expression, String)? {
        var found: [(Expression, String)] = []
        var stack = [c.root]
        while let e = stack.popLast() {
            if case .call(let callee, let args) = e.kind, case .call(.child)? = c.resolution(of: e), let recv = callee.receiver,
                let p = WitnessPlanner.newDataPath(recv, c), p.isEmpty, let a = args.first, case .string(let s) = a.kind
            {
                let f = String(s.split(separator: "/").first ?? "")
                if fields.contains(f), node.literalChild(f) == nil { found.append((e, f)) }
            }
            stack += e.subexpressions
        }
        return found.min { $0.0.range.start < $1.0.range.start }
    }

    /// Mallory writes the phantom record, then someone else's record (or both in one update).
    private static func candidates(_ node: RuleNode, _ record: RuleNode, field: String, rule: CheckedExpression) -> [LintWitness] {
        let me = WitnessPlanner.attacker
        let base = WitnessPlanner.concrete(node.path, fallback: "k1")
        let collection = WitnessPlanner.sample(node, uid: me)
        let phantom = WitnessPlanner.lookup(collection, [field]) ?? .string(me)
        let victimRecord = WitnessPlanner.sample(record, uid: WitnessPlanner.victim)
        let prefix = base == "/" ? "" : base
        let first = LintWitness.Step(.set, prefix + "/" + field, value: phantom, note: "write the phantom record '\(field)'")
        let second = LintWitness.Step(.set, prefix + "/r1", value: victimRecord, note: "now any record passes, here one of \(WitnessPlanner.victim)'s")
        let both = LintWitness.Step(.update, base, value: .object([field: phantom, "r1": victimRecord]), note: "the phantom record and someone else's in one update")
        return [
            LintWitness(identity: .stranger(uid: me), steps: [first, second]),
            LintWitness(identity: .stranger(uid: me), steps: [both]),
        ]
    }
}
