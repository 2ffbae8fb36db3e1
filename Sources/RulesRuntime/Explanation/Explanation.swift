import RulesCompiler
import RulesSyntax

/// Why an operation was allowed or denied: for each path the operation touched, each rule
/// evaluated, where it is in the file, its result, the bound `$vars` and the values of its
/// sub-expressions.
public struct Explanation: Sendable, CustomStringConvertible {
    /// What was decided, e.g. `update /`.
    public var operation: String
    /// True when allowed.
    public var allowed: Bool
    // Stored here, next to `allowed`, where they fit in its padding: a decision (which holds
    // its explanation inline) stays as small as it was, and is copied as cheaply.
    private var omitted: Int32 = 0
    /// Whether values the caller may not read are withheld (shown as ``unreadable``).
    public private(set) var isRedacted = false
    /// A reason given before any rule ran (an invalid path, overlapping update paths), if any.
    public var rejection: String?
    /// The evaluations, in order.
    public var evaluations: [RuleEvaluation]
    /// The index in ``evaluations`` of the evaluation that decided, when the engine knows it.
    public var decisiveIndex: Int?
    /// For a read or write denied because no rule on the path or above it granted: the rules of
    /// that kind *below* the location (`/posts/$postId/stars/$uid/.write`), which are never
    /// consulted for an operation at it (rules are not filters, and a write is decided by the
    /// rules along its path). Empty when there are none. At most
    /// ``rulesNotConsultedShown`` are named, then `and more`.
    public var rulesNotConsulted: [String] = []

    /// How many rules ``rulesNotConsulted`` names.
    public static let rulesNotConsultedShown = 3

    /// A hint for a denial with ``rulesNotConsulted``: why those rules did not help, and what to
    /// do instead. Nil when there are none.
    public var notConsultedHint: String? {
        guard !rulesNotConsulted.isEmpty else { return nil }
        let rules = rulesNotConsulted.joined(separator: ", ")
        if operation.hasPrefix("read ") {
            return "rules below are not consulted for a read here (rules are not filters): \(rules); read those locations instead"
        }
        return "rules below are not consulted for a write here: \(rules); write those locations instead (several at once with a multi-path update)"
    }

    /// How many rule evaluations were made but not recorded (past ``ExplanationLimits``; at
    /// most `Int32.max`).
    public var omittedEvaluations: Int {
        get { Int(omitted) }
        set { omitted = Int32(clamping: newValue) }
    }

    /// What a redacted explanation shows in place of a value the caller may not read.
    public static let unreadable = "<unreadable>"

    /// Creates an explanation.
    public init(operation: String, allowed: Bool, rejection: String?, evaluations: [RuleEvaluation]) {
        self.operation = operation
        self.allowed = allowed
        self.rejection = rejection
        self.evaluations = evaluations
    }

    /// The evaluation that decided a denial: the first failing `.validate`, or else the last
    /// `.write`/`.read` that did not grant.
    public var decisive: RuleEvaluation? {
        if let i = decisiveIndex, evaluations.indices.contains(i) { return evaluations[i] }
        if allowed { return evaluations.last { $0.outcome.isTrue && $0.kind != .validate } }
        if let v = evaluations.first(where: { $0.kind == .validate && !$0.outcome.isTrue }) { return v }
        return evaluations.last { !$0.outcome.isTrue }
    }

    /// Why a denial was decided, in one line: the part of the deciding rule that was false (down
    /// `&&` to the first false conjunct), its value and what made it so, e.g.
    /// `newData.hasChildren(['title','body']) was false: missing 'body'`; when an `||` decided,
    /// each of its alternatives so, separated by `; `; or the deciding rule's
    /// runtime error. Nil when allowed, rejected, or when no rule decided. The part's source
    /// text is cut (with `…`) to keep the first line of ``text`` within
    /// ``ExplanationFormat/headlineWidth`` columns where it can.
    public var headline: String? {
        guard !allowed, rejection == nil, let d = decisive else { return nil }
        switch d.outcome {
        case .error(let e):
            return "error in \(d.rulePath): \(e.message)"
        case .value where d.falseAlternatives.count > 1:
            // Every alternative of the deciding `||`, each with its value and detail; the parts
            // share the room left on the line (none cut below
            // ``ExplanationFormat/headlineAlternativeWidth``).
            let alternatives = d.falseAlternatives
            let rests = alternatives.map { $0.rendered(partWidth: .max).count - $0.part.count }
            let fixed = "\(operation): denied: ".count + rests.reduce(0, +) + 2 * (alternatives.count - 1)
            let widths = ExplanationFormat.shares(of: ExplanationFormat.headlineWidth - fixed,
                                                  among: alternatives.map(\.part.count),
                                                  least: ExplanationFormat.headlineAlternativeWidth)
            return zip(alternatives, widths).map { $0.rendered(partWidth: $1) }.joined(separator: "; ")
        case .value:
            let part = d.falsePart ?? d.source
            if part.isEmpty || (d.falsePart == nil && (part == "false" || part == "true")) {
                return "\(d.rulePath) is \(d.outcome)"
            }
            var rest = " was " + (d.decidingValue ?? "false")
            if let detail = d.falseDetail { rest += ": " + detail }
            let room = ExplanationFormat.headlineWidth - "\(operation): denied: ".count - rest.count
            return ExplanationFormat.clip(part, max(room, ExplanationFormat.headlinePartWidth)) + rest
        }
    }

    /// What a log line or an error message needs, in a few lines: the verdict and, for a
    /// denial, the ``headline``, where it is (`file:line:col`, rule and data path), the rules
    /// file's line with carets under it, every alternative of a deciding `||`, and a hint when
    /// rules below the location were never consulted. The whole trace is ``trace``.
    public var text: String {
        var out = ""
        let deciding = appendSummary(to: &out)
        if allowed, let d = deciding { out += "  by \(d.rulePath) at \(d.position)\n" }
        return out
    }

    /// ``text``.
    public var description: String { text }

    /// The whole trace: ``text``, then every rule evaluated, `→` marking the one that decided,
    /// with its bound `$` variables and the values of its sub-expressions. A rule evaluated again
    /// at the same place with the same result and values (an ancestor shared by the paths of a
    /// multi-path update) is shown once, followed by `(also for N other paths)`.
    public var trace: String {
        var out = ""
        let deciding = appendSummary(to: &out)
        // The same evaluation repeated: shown the first time, counted after.
        var firstOf: [String: Int] = [:]
        var repeats: [Int: Int] = [:]
        var representative: [Int] = []
        for (i, e) in evaluations.enumerated() {
            let key = e.identity
            if let first = firstOf[key] {
                repeats[first, default: 0] += 1
                representative.append(first)
            } else {
                firstOf[key] = i
                representative.append(i)
            }
        }
        let decidingIndex = deciding.flatMap { d in evaluations.firstIndex { $0.id == d.id } }.map { representative[$0] }
        for (i, e) in evaluations.enumerated() where representative[i] == i {
            let marker = decidingIndex == i ? "→ " : "  "
            var summary = e.summary
            if let n = repeats[i] { summary += " (also for \(n) other \(n == 1 ? "path" : "paths"))" }
            out += "  \(marker)\(summary)\n"
            if !e.bindings.isEmpty {
                out += "      with " + e.bindings.map { "\($0.name) = \(Value.quote($0.value))" }.joined(separator: ", ") + "\n"
            }
            if !e.source.isEmpty { out += "      " + e.source + "\n" }
            for v in e.values { out += "        \(v.text) = \(v.value)\n" }
        }
        if omittedEvaluations > 0 {
            let n = omittedEvaluations
            out += "  … and \(Self.grouped(n)) more \(n == 1 ? "evaluation" : "evaluations") not recorded\n"
        }
        return out
    }

    /// Appends ``text`` (the first lines of ``trace``); returns the deciding evaluation.
    @discardableResult
    private func appendSummary(to out: inout String) -> RuleEvaluation? {
        out += "\(operation): \(allowed ? "allowed" : "denied")"
        let deciding = decisive
        if let headline, let d = deciding {
            out += ": " + headline + "\n"
            let at = d.excerpt.map { "\(d.file):\($0.location.line):\($0.location.column)" } ?? d.position
            out += "  at \(at) in \(d.rulePath) on \(d.dataPath)\n"
            if let excerpt = d.excerpt {
                let (source, carets) = excerpt.rendered()
                out += "    " + source + "\n"
                out += "    " + carets + "\n"
            }
            if d.falseAlternatives.count > 1 {
                out += "  every alternative of the || was false:\n"
                for a in d.falseAlternatives { out += "    - " + a.rendered() + "\n" }
            }
        } else {
            out += "\n"
        }
        if let rejection { out += "  rejected before any rule ran: \(rejection)\n" }
        if let hint = notConsultedHint { out += "  hint: \(hint)\n" }
        if evaluations.isEmpty && rejection == nil {
            out += "  no rule applies on this path\n"
        }
        return deciding
    }

    /// `49,990`.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 && d != "-" && digits[i - 1] != "-" { out.append(",") }
            out.append(d)
        }
        return out
    }

    /// Leaves out what a caller should not learn from an explanation of their own request (its
    /// values are already withheld by the engine): every evaluation of a rule that read data
    /// the caller may not read, except the one that decided a denial (which the denial's reason
    /// names anyway), and, for a denial, every evaluation after the deciding one (made only
    /// because explaining evaluates every rule; their results could tell what the rules read).
    /// The same explanation over `evaluations` (the unredacted copies of this one's, one for
    /// one), before ``redact(denied:)``.
    func unredacted(_ evaluations: [RuleEvaluation]) -> Explanation {
        var copy = self
        copy.evaluations = evaluations
        return copy
    }

    mutating func redact(denied: Bool) {
        isRedacted = true
        var kept: [RuleEvaluation] = []
        var newDecisive: Int?
        var omittedBefore = omittedEvaluations
        for (i, e) in evaluations.enumerated() {
            if denied, let d = decisiveIndex, i > d { break }
            if i == decisiveIndex && denied {
                newDecisive = kept.count
                kept.append(e)
                // Evaluations not recorded before the deciding one.
                omittedBefore = e.id - i
            } else if !e.readsUnreadable {
                if i == decisiveIndex { newDecisive = kept.count }
                kept.append(e)
            }
        }
        evaluations = kept
        decisiveIndex = newDecisive
        omittedEvaluations = omittedBefore
    }
}

/// One rule evaluation.
public struct RuleEvaluation: Sendable, Identifiable {
    /// The order of evaluation within the operation.
    public var id: Int
    /// `.read`, `.write` or `.validate`.
    public var kind: RuleKind
    /// What the evaluation was for: the data path it ran at.
    public var dataPath: String
    /// The rule path, e.g. `/posts/$postId/.write`.
    public var rulePath: String
    /// The rules file.
    public var file: String
    /// Where the rule's value starts.
    public var location: SourceLocation
    /// True, false or the runtime error.
    public var outcome: RuleOutcome
    /// Where a runtime error happened, if one did.
    public var errorLocation: SourceLocation?
    /// The `$vars` bound, outermost first.
    public var bindings: [(name: String, value: String)]
    /// The rule's source text (one line, trimmed).
    public var source: String
    /// Sub-expression values, in source order.
    public var values: [(text: String, value: String)]
    /// For a false rule, the sub-expression that made it false (down `&&` to the first false
    /// operand, down `||` to the first alternative, into the branch of `?:` taken); nil when
    /// the whole rule is that expression, or the rule was not false.
    public var falsePart: String? = nil
    /// For a false rule decided by an `||` (on the way down `&&` and `?:` from the rule): each
    /// of its alternatives, all false, in order (an alternative that is an `||` itself is given
    /// by its own alternatives); empty otherwise. ``falsePart`` is the first of them.
    public var falseAlternatives: [FalseAlternative] = []
    /// For a false rule, the value of the part that made it false (``falsePart``, or the whole
    /// rule): `false`, or what a non-boolean came to.
    public var decidingValue: String? = nil
    /// For a false rule, what made that part false, in a few words: `missing 'body'` for a
    /// `hasChildren([...])`, `'alice' === 'bob'` for a comparison, what a method was called on;
    /// nil when there is nothing to add.
    public var falseDetail: String? = nil
    /// The line of the rules file with the part that made a false rule false (or the runtime
    /// error), for carets under it.
    package var excerpt: SourceExcerpt? = nil
    /// Whether the rule read data the caller may not read (known only for a redacted
    /// explanation).
    var readsUnreadable = false

    /// The bytes of the value texts recorded for this evaluation (see ``ExplanationLimits``).
    var valueBytes: Int {
        var n = (decidingValue?.utf8.count ?? 0) + (falseDetail?.utf8.count ?? 0)
        for v in values { n += v.text.utf8.count + v.value.utf8.count }
        for a in falseAlternatives { n += a.part.utf8.count + a.value.utf8.count + (a.detail?.utf8.count ?? 0) }
        for b in bindings { n += b.name.utf8.count + b.value.utf8.count }
        return n
    }

    /// `file:line:col`.
    public var position: String { "\(file):\(location.line):\(location.column)" }

    /// What makes two evaluations the same for a reader: rule, place, data path, result (with
    /// where an error happened), bound `$vars` and values.
    var identity: String {
        var parts = [summary, source]
        for b in bindings { parts.append(b.name + "=" + b.value) }
        for v in values { parts.append(v.text + "=" + v.value) }
        return parts.joined(separator: "\u{0}")
    }

    /// One line: rule path, position, data path and result.
    public var summary: String {
        var s = "\(rulePath) at \(position) on \(dataPath): \(outcome)"
        if let at = errorLocation { s += " (at \(file):\(at.line):\(at.column))" }
        return s
    }
}
