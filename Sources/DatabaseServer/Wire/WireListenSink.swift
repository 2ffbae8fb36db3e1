import DatabaseRules

/// A WebSocket listen as a listener of the database: events become `d` (overwrite) and `m`
/// (merge) pushes at absolute paths, with the listen's tag; a cancellation becomes `c`.
struct WireListenSink: EventSink {
    let outbox: WireOutbox
    /// The listened location, `/a/b`.
    let path: String
    /// The query listen's tag, if any.
    let tag: Int?
    /// The query object as the client sent it (echoed in `c`).
    let queryJSON: String?

    func deliver(_ event: DatabaseEvent) -> Bool {
        let ok: Bool
        switch event {
        case .put(let relative, let value):
            ok = outbox.push("d", body(absolute(relative), value.export))
        case .patch(let relative, let value):
            ok = outbox.push("m", body(absolute(relative), value.export))
        case .cancel:
            var b = #"{"p":"# + JSONText.quote(path)
            if let queryJSON { b += #","q":["# + queryJSON + "]" }
            ok = outbox.push("c", b + "}")
        case .authRevoked:
            ok = outbox.push("ac", #"{"s":"expired_token","d":"Auth token is expired."}"#)
        }
        return ok  // a full outbox closes the connection
    }

    func finish() {}

    private func absolute(_ relative: String) -> String {
        if relative == "/" { return path }
        return path == "/" ? relative : path + relative
    }

    private func body(_ p: String, _ json: String) -> String {
        var b = #"{"p":"# + JSONText.quote(p) + #","d":"# + json
        if let tag { b += #","t":\#(tag)"# }
        return b + "}"
    }
}
