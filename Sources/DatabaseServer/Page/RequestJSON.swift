import DatabaseRules

/// The request log as JSON for the page: `/.inspect/requests.json` (summaries, oldest first)
/// and `/.inspect/requests/ID.json` (one request with its explanation and the rules source it
/// was decided by).
enum RequestJSON {
    /// `{"total": N, "capacity": C, "requests": [summary, …]}`: `total` counts requests since
    /// start (the last id), `capacity` is the size of the ring.
    static func list(_ records: [RequestRecord], total: Int, capacity: Int) -> String {
        #"{"total":\#(total),"capacity":\#(capacity),"requests":["# + records.map(summary).joined(separator: ",") + "]}"
    }

    /// One request: `id`, `time` (milliseconds since 1970), `transport`, `method`, `ns`, `path`,
    /// `identity`, `uid`, `verdict`, `status`, `reason` (the one-line explanation or error),
    /// `ms`, and `explained` (whether a rules decision was kept to explain).
    static func summary(_ r: RequestRecord) -> String {
        var out = #"{"id":\#(r.id),"time":\#(Int64((r.time.timeIntervalSince1970 * 1000).rounded(.down)))"#
        out += #","transport":"# + q(r.transport) + #","method":"# + q(r.method)
        out += #","ns":"# + q(r.namespace) + #","path":"# + q(r.path)
        out += #","identity":"# + q(r.identity) + #","uid":"# + (r.uid.map(q) ?? "null")
        out += #","verdict":"# + q(r.verdict) + #","status":\#(r.status)"#
        out += #","reason":"# + (r.reason.map(q) ?? "null")
        out += #","ms":"# + String((r.milliseconds * 1000).rounded() / 1000)
        out += #","explained":"# + (r.decision == nil ? "false" : "true") + "}"
        return out
    }

    /// The summary plus `explanation` (``ExplanationJSON``, decided again now on the data the
    /// request saw; null when no rule was asked) and `rules`: `{"origin", "file", "source"}`
    /// of the rules it was decided by (null likewise).
    static func detail(_ r: RequestRecord) -> String {
        var out = String(summary(r).dropLast())
        guard let recorded = r.decision else {
            return out + #","explanation":null,"rules":null}"#
        }
        let explanation = recorded.explain().explanation
        out += #","explanation":"# + (explanation.map(ExplanationJSON.render) ?? "null")
        out += #","rules":{"origin":"# + q(recorded.rules.origin.description)
        out += #","file":"# + q(recorded.rules.ruleset.compiled.file.path)
        out += #","source":"# + q(recorded.rules.source) + "}}"
        return out
    }

    private static func q(_ s: String) -> String { DataText.jsonQuoted(s) }
}
