/// Where a request goes: the server's one table of paths. The edge sends `/.lp` to the
/// long-polling door, the HTTP layer upgrades `/.ws` to the WebSocket door, and the REST door
/// serves the rest by the same table (the page and its assets, the emulator's endpoints, data).
enum Route: Equatable {
    /// `/.ws?v=5&ns=NAME[&s=SESSION]`: the realtime protocol over a WebSocket.
    case webSocket
    /// `/.lp?…`: the realtime protocol over long polling.
    case longPoll
    /// A path that does not end in `.json`: the page and its assets (``RESTResponder/pageAsset``),
    /// else 404.
    case page([String])
    /// `/.settings/rules.json`: the rules (GET, PUT).
    case rules
    /// `/.inspect/….json`: the inspector's data.
    case inspect([String])
    /// `/a/b/.priority.json`: a node's priority.
    case priority([String])
    /// `/a/b.json`: data (read, stream, write).
    case data([String])
    /// A `.json` path that names nothing served (`/.settings/other.json`).
    case notFound

    /// Whether a request target's path is the long-polling door's (`/.lp`, any query): what the
    /// edge asks of every request, without parsing the rest of the target.
    static func isLongPoll(path target: String) -> Bool {
        let utf8 = target.utf8
        return utf8[..<(utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex)].elementsEqual("/.lp".utf8)
    }

    /// The route of a request target's path (the query is not looked at).
    static func of(path target: String) -> Route {
        var path = Substring(target)
        if let question = path.utf8.firstIndex(of: UInt8(ascii: "?")) { path = path[..<question] }
        if path.utf8.elementsEqual("/.ws".utf8) { return .webSocket }
        if path.utf8.elementsEqual("/.lp".utf8) { return .longPoll }
        guard let parsed = try? RequestTarget(String(path)) else { return .notFound }
        return of(parsed)
    }

    /// The route of a parsed target.
    static func of(_ target: RequestTarget) -> Route {
        let segments = target.segments
        guard target.isJSON else { return .page(segments) }
        switch segments.first {
        case ".settings": return segments == [".settings", "rules"] ? .rules : .notFound
        case ".inspect": return .inspect(segments)
        default: break
        }
        if segments.last == ".priority" { return .priority(Array(segments.dropLast())) }
        return .data(segments)
    }
}
