import RulesCompiler

extension LintCode {
    /// `per-user-data-readable`: see ``PerUserDataReadableLint``.
    public static let perUserDataReadable = LintCode(declaring: "per-user-data-readable")
}

/// `per-user-data-readable`: records keyed by their owner's uid, which only the owner may write,
/// that any signed-in stranger may read (anyone signed out reading is `public-read`). One
/// finding per rule that grants the read.
enum PerUserDataReadableLint: ModelLint {
    static let code = LintCode.perUserDataReadable
    static let category = LintCategory.security
    static let securitySeverity: Double? = 5.3
    static let summary = "Per-user records that any signed-in stranger may read."
    static let help =
        "The records are keyed by their owner's uid and only the owner may write them, yet a .read lets every signed-in user read everyone's. If the records are private, grant the read to auth.uid == $uid; if they are meant to be public, suppress the finding."


    static func check(_ context: inout ThreatContext) -> [LintFinding] {
        let model = context.model
        let cells = model.cells.filter { c in
            guard c.location.kind == .record, c.location.isKeyedByOwner, c.principal == .stranger, c.operation == .read,
                case .allowed = c.verdict
            else { return false }
            let others = model.cells.filter { $0.location.node === c.location.node }
            let anonymousReads = others.contains { $0.principal == .anonymous && $0.operation == .read && $0.verdict.isAllowed }
            let strangerWrites = others.contains { $0.principal == .stranger && ($0.operation == .update || $0.operation == .delete) && $0.verdict.isAllowed }
            let ownerWrites = others.contains { $0.principal == .owner && $0.operation == .update && $0.verdict.isAllowed }
            return !anonymousReads && !strangerWrites && ownerWrites
        }
        var out: [LintFinding] = []
        for (rule, group) in ThreatContext.grouped(cells) {
            guard let witness = group[0].verdict.witness else { continue }
            let locations = Array(Set(group.map(\.location.path))).sorted()
            let message = "Any signed-in user can read every user's records at \(locations.joined(separator: ", ")), which only their owner may write: \(rule.description) (\(rule.text)) grants it. If they are private, grant the read to their owner (auth.uid == \(group[0].location.node.path.last ?? "$uid")); if they are public on purpose, suppress this finding."
            let related = group.map { ThreatContext.related($0.location, "a stranger may read \($0.location.path)") }
            out.append(ThreatContext.finding(
                code, at: rule, message: message, anchor: "\(rule.node.pathDescription) \(rule.kind.key) per-user read", witness: witness, related: related))
        }
        return out
    }
}
