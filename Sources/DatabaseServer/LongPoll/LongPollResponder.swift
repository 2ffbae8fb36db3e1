import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The long-polling door (`/.lp`), as the JavaScript SDK speaks it in a browser: every request
/// is a script the SDK loads in a hidden iframe, so every answer that should run is `200`
/// JavaScript (``LongPollScript``), and what it carries is the same data layer as the
/// WebSocket door (``WireSession``).
///
/// - `start=t&cb=N&ns=NAME`: a new session; the answer names its id and password and holds the
///   handshake.
/// - `id&pw[&seg<i>&ts<i>&d<i>…]`: a poll, perhaps with data (``LongPollSession/poll(segments:)``);
///   for a session that is not open (ended, or the server restarted): `pLPCommand('close')`,
///   and the SDK starts a new one.
/// - `dframe=t&id&pw`: the disconnect frame, an HTML page that says `disconn` when removed.
/// - `disconn=t&id&pw`: the client has gone; the session ends (unless it moved to WebSocket).
struct LongPollResponder: Sendable {
    let registry: NamespaceRegistry
    let log: RequestLog
    let limits: ServerLimits
    let explainDenials: Bool
    let sessions: LongPollSessions
    let counter: SessionCounter
    /// The bytes waiting for every slow reader together.
    var pending: QueueBudget.Shared? = nil
    /// The host names the server answers (the operator's: tools may be the administrator there).
    var hosts = HostPolicy()
    /// The server-wide totals of query listens and onDisconnect bytes (nil: the session's own).
    var totals: WireTotals? = nil

    /// Answers `request`, which came from `peer` (nil: not a network connection).
    func respond(to request: Request, peer: SocketAddress? = nil) async -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.text("GET only: /.lp is the SDKs' long-polling transport.\n", status: .methodNotAllowed, type: "text/plain; charset=utf-8")
        }
        let target: RequestTarget
        do {
            target = try RequestTarget(request.head.path ?? "/.lp")
        } catch {
            return Self.script(LongPollScript.comment(error.message), status: .badRequest)
        }
        if target.parameter("start") == "t" { return start(request, target, peer: peer) }
        let session = sessions.session(id: target.parameter("id"), password: target.parameter("pw"))
        if target.parameter("dframe") == "t" {
            guard let session else { return Self.text("", type: "text/html; charset=utf-8") }
            return Self.text(LongPollScript.disconnectFrame(id: session.id, password: session.password, namespace: session.wire.namespaceName), type: "text/html; charset=utf-8")
        }
        if target.parameter("disconn") == "t" {
            session?.disconnect()
            return Self.script("")
        }
        guard let session else { return Self.script(LongPollScript.close()) }
        let segments: [(number: Int, total: Int, data: Substring)]
        do throws(BadSegments) {
            segments = try Self.segments(target)
        } catch {
            session.wire.close(error.reason)
            session.end(evenIfUpgraded: true)
            return Self.script(LongPollScript.close())
        }
        return Self.script(await session.poll(segments: segments))
    }

    /// A new session.
    private func start(_ request: Request, _ target: RequestTarget, peer: SocketAddress?) -> Response {
        guard let callback = target.parameter("cb"), !callback.isEmpty, callback.count <= 12, callback.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return Self.script(LongPollScript.comment("a long-polling start needs cb=DIGITS"), status: .badRequest)
        }
        let name: NamespaceName
        do {
            name = try registry.name(target.parameter("ns"))
        } catch {
            return Self.script(LongPollScript.comment(error.message), status: .badRequest)
        }
        let host = request.head.authority ?? "127.0.0.1"
        let number = counter.next()
        let origin = Self.origin(of: request, hosts: hosts)
        let wire = WireSession(
            namespace: registry.namespace(forReading: name), registry: registry, log: log, limits: limits, host: host,
            session: "rules-serve-\(number)-\(LongPollSessions.randomPassword().prefix(12))", explainDenials: explainDenials, transport: .lp,
            origin: origin, pending: pending, totals: totals)
        let session: LongPollSession
        do {
            session = try sessions.open(wire: wire, callback: callback, client: ClientKey(origin: origin, peer: peer))
        } catch {
            log.console.say("lp \(name): refusing a long-polling session: \(error.message)")
            var response = Self.script(LongPollScript.comment(error.message), status: .serviceUnavailable)
            response.headers[.retryAfter] = "1"
            return response
        }
        session.start()
        return Self.script(session.startScript)
    }

    /// The browser context of a long-polling request. A script request carries no `Origin`;
    /// the page's origin is in its `Referer` (browsers send at least the origin by default), so
    /// a page on this machine may use `owner`, and one elsewhere (or one that sends no
    /// referrer, cross-site) may not.
    static func origin(of request: Request, hosts: HostPolicy) -> RequestOrigin {
        var origin = request.headers[.origin]
        if origin == nil, let referer = request.headers[.referer], let url = URL(string: referer), let scheme = url.scheme, let host = url.host {
            let authority = host.contains(":") ? "[\(host)]" : host
            origin = "\(scheme)://\(authority)" + (url.port.map { ":\($0)" } ?? "")
        }
        var context = RequestOrigin(request, hosts: hosts)
        context.origin = origin
        return context
    }

    /// Unusable data in a poll.
    struct BadSegments: Error {
        let reason: String
    }

    /// The segments of a poll: `seg<i>`, `ts<i>`, `d<i>` for i = 0, 1, 2… (as many as are
    /// there, in any order in the query).
    static func segments(_ target: RequestTarget) throws(BadSegments) -> [(number: Int, total: Int, data: Substring)] {
        var byIndex: [Int: (seg: Int?, ts: Int?, d: Substring?)] = [:]
        for (name, value) in target.parameters {
            for prefix in ["seg", "ts", "d"] where name.hasPrefix(prefix) {
                guard let index = Int(name.dropFirst(prefix.count)), index >= 0, index < 1000 else { continue }
                var entry = byIndex[index] ?? (nil, nil, nil)
                switch prefix {
                case "seg": entry.seg = Int(value)
                case "ts": entry.ts = Int(value)
                default: entry.d = Substring(value)
                }
                byIndex[index] = entry
            }
        }
        var result: [(number: Int, total: Int, data: Substring)] = []
        for index in byIndex.keys.sorted() {
            let entry = byIndex[index]!
            guard let seg = entry.seg, let ts = entry.ts, let d = entry.d else {
                throw BadSegments(reason: "segment \(index) needs whole numbers seg\(index), ts\(index) and data d\(index)")
            }
            result.append((seg, ts, d))
        }
        return result
    }

    /// A `200` JavaScript answer (the SDK runs it; any other status closes the transport).
    static func script(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        text(body, status: status, type: "application/javascript; charset=utf-8")
    }

    static func text(_ body: String, status: HTTPResponse.Status = .ok, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
