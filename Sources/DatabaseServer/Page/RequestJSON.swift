import DatabaseRules
import RulesSyntax

/// The request log as JSON for the page: `/.inspect/requests.json` (summaries, oldest first)
/// and `/.inspect/requests/ID.json` (one request with its explanation and the rules source it
/// was decided by).
enum RequestJSON {
    /// `{"total": N, "capacity": C, "requests": [summary, …]}`: `total` counts requests since
    /// start (the last id), `capacity` is the size of the ring.
    static func list(_ records: [RequestRecord], total: Int, capacity: Int) -> String {
        JSONText.object([
            ("total", .int(total)), ("capacity", .int(capacity)), ("requests", .array(records.map(summary))),
        ]).rendered(indent: 0)
    }

    /// One request: `id`, `time` (milliseconds since 1970), `transport`, `method`, `ns`, `path`,
    /// `identity`, `uid`, `verdict`, `status`, `reason` (the one-line explanation or error),
    /// `ms`, and `explained` (whether a rules decision was kept to explain).
    static func summary(_ r: RequestRecord) -> JSONText {
        .object(summaryMembers(r))
    }

    private static func summaryMembers(_ r: RequestRecord) -> [(String, JSONText)] {
        [
            ("id", .int(r.id)), ("time", .int(Int((r.time.timeIntervalSince1970 * 1000).rounded(.down)))),
            ("transport", .string(r.transport.rawValue)), ("method", .string(r.method)),
            ("ns", .string(r.namespace)), ("path", .string(r.path)),
            ("identity", .string(r.identity)), ("uid", .string(orNull: r.uid)),
            ("verdict", .string(r.verdict.rawValue)), ("status", .int(r.status)),
            ("reason", .string(orNull: r.reason)),
            ("ms", .double((r.milliseconds * 1000).rounded() / 1000)),
            ("explained", .bool(r.decision != nil)),
        ]
    }

    /// The summary plus `explanation` (``ExplanationJSON``, decided again now on the data the
    /// request saw; null when no rule was asked) and `rules`: `{"origin", "file", "source"}`
    /// of the rules it was decided by (null likewise).
    static func detail(_ r: RequestRecord) -> String {
        var members = summaryMembers(r)
        if let recorded = r.decision {
            members.append(("explanation", recorded.explain().explanation.map(ExplanationJSON.value) ?? .null))
            members.append(("rules", .object([
                ("origin", .string(recorded.rules.origin.description)),
                ("file", .string(recorded.rules.ruleset.compiled.file.path)),
                ("source", .string(recorded.rules.source)),
            ])))
        } else {
            members += [("explanation", .null), ("rules", .null)]
        }
        return JSONText.object(members).rendered(indent: 0)
    }
}
