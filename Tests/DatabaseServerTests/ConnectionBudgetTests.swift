import Foundation
import Testing

@testable import DatabaseServer

/// What one realtime connection may hold is bounded (`docs/limits.md`): listens, onDisconnect
/// operations and their bytes, the pieces of a message being reassembled, long-polling sessions
/// per client. Past a bound the client gets an error answer (or the connection a close reason),
/// and the connection keeps what it had.
@Suite struct ConnectionBudgetTests {
    /// A session on an open namespace, with `limits`.
    static func session(_ limits: ServerLimits, totals: WireTotals? = nil) -> (WireSession, AsyncStream<WireOutbox.Item>.AsyncIterator) {
        let registry = NamespaceRegistry(defaultName: "demo", rules: .open, coverage: nil)
        let wire = WireSession(
            namespace: registry.namespace("demo"), registry: registry, log: RequestLog(format: .quiet), limits: limits, host: "127.0.0.1",
            session: "test", explainDenials: false, transport: .ws, origin: .local, totals: totals)
        return (wire, wire.stream.makeAsyncIterator())
    }

    /// Sends request `r` and returns its reply's status, skipping pushes.
    static func request(
        _ wire: WireSession, _ replies: inout AsyncStream<WireOutbox.Item>.AsyncIterator, _ r: Int, _ action: String, _ body: String
    ) async throws -> (status: String, data: String) {
        try await wire.handle(WireMessage(#"{"t":"d","d":{"r":\#(r),"a":"\#(action)","b":\#(body)}}"#))
        while let item = await replies.next() {
            let text: String
            switch item {
            case .message(let m): text = m
            case .acknowledgement(let rr, let data, _): text = #"{"t":"d","d":{"r":\#(rr),"b":{"s":"ok","d":\#(data)}}}"#
            case .endOfTransmission: continue
            }
            guard text.contains(#""r":\#(r),"#) else { continue }
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            let b = (object["d"] as! [String: Any])["b"] as! [String: Any]
            let data = b["d"].map { "\($0)" } ?? ""
            return (b["s"] as! String, data)
        }
        throw CancellationError()
    }

    @Test func listensPerConnectionAreBounded() async throws {
        var limits = ServerLimits()
        limits.maxListensPerConnection = 3
        var (wire, replies) = Self.session(limits)
        for i in 0..<3 {
            #expect(try await Self.request(wire, &replies, i, "q", #"{"p":"/l\#(i)","h":""}"#).status == "ok")
        }
        let refused = try await Self.request(wire, &replies, 3, "q", #"{"p":"/l3","h":""}"#)
        #expect(refused.status != "ok")
        #expect(refused.data.contains("Too many listens on this connection: the limit is 3"))
        // Listening again where it listens is a replacement, not one more.
        #expect(try await Self.request(wire, &replies, 4, "q", #"{"p":"/l0","h":""}"#).status == "ok")
        // After an unlisten there is room again.
        #expect(try await Self.request(wire, &replies, 5, "n", #"{"p":"/l1"}"#).status == "ok")
        #expect(try await Self.request(wire, &replies, 6, "q", #"{"p":"/l3","h":""}"#).status == "ok")
        await wire.disconnected()
    }

    @Test func onDisconnectOperationsAreBoundedInNumberAndBytes() async throws {
        var limits = ServerLimits()
        limits.maxOnDisconnectOperations = 2
        limits.maxOnDisconnectBytes = 400
        var (wire, replies) = Self.session(limits)
        #expect(try await Self.request(wire, &replies, 1, "o", #"{"p":"/a","d":1}"#).status == "ok")
        #expect(try await Self.request(wire, &replies, 2, "o", #"{"p":"/b","d":2}"#).status == "ok")
        let third = try await Self.request(wire, &replies, 3, "o", #"{"p":"/c","d":3}"#)
        #expect(third.status != "ok")
        #expect(third.data.contains("Too many onDisconnect operations on this connection: the limit is 2"))
        // Cancelling gives the room back; a large value is refused by bytes.
        #expect(try await Self.request(wire, &replies, 4, "oc", #"{"p":"/a"}"#).status == "ok")
        let big = #"""# + String(repeating: "x", count: 500) + #"""#
        let large = try await Self.request(wire, &replies, 5, "o", #"{"p":"/d","d":\#(big)}"#)
        #expect(large.status != "ok")
        #expect(large.data.contains("would hold"))
        #expect(try await Self.request(wire, &replies, 6, "o", #"{"p":"/e","d":5}"#).status == "ok")
        await wire.disconnected()
    }

    /// A query listen keeps its bounds and names (`q`) while it lasts: their bytes are counted
    /// against the connection's budget and the server's total, and given back on unlisten and
    /// close.
    @Test func queryListensHaveAByteBudgetPerConnectionAndInTotal() async throws {
        var limits = ServerLimits()
        limits.maxListenQueryBytes = 100
        limits.maxListenQueryBytesTotal = 150
        let totals = WireTotals(limits)
        var (first, firstReplies) = Self.session(limits, totals: totals)
        var (second, secondReplies) = Self.session(limits, totals: totals)
        // 50 bytes: {"i":".key","sp":"…"} with 30 bytes of bound.
        let query = #"{"i":".key","sp":""# + String(repeating: "b", count: 30) + #""}"#
        #expect(query.utf8.count == 50)
        #expect(try await Self.request(first, &firstReplies, 1, "q", #"{"p":"/a","q":\#(query),"t":1,"h":""}"#).status == "ok")
        #expect(try await Self.request(first, &firstReplies, 2, "q", #"{"p":"/b","q":\#(query),"t":2,"h":""}"#).status == "ok")
        #expect(totals.listenQueries.inUse == 100)
        // Listening again where it listens replaces the listen and its bytes.
        #expect(try await Self.request(first, &firstReplies, 3, "q", #"{"p":"/b","q":\#(query),"t":2,"h":""}"#).status == "ok")
        #expect(totals.listenQueries.inUse == 100)
        let overConnection = try await Self.request(first, &firstReplies, 4, "q", #"{"p":"/c","q":\#(query),"t":3,"h":""}"#)
        #expect(overConnection.status == "unavailable")
        #expect(overConnection.data.contains("The query listens of this connection would hold 150 bytes of query bounds and names: the limit is 100"))
        // A listen without a query holds no query bytes.
        #expect(try await Self.request(first, &firstReplies, 5, "q", #"{"p":"/d","h":""}"#).status == "ok")
        #expect(try await Self.request(second, &secondReplies, 1, "q", #"{"p":"/a","q":\#(query),"t":1,"h":""}"#).status == "ok")
        let overTotal = try await Self.request(second, &secondReplies, 2, "q", #"{"p":"/b","q":\#(query),"t":2,"h":""}"#)
        #expect(overTotal.status == "unavailable")
        #expect(overTotal.data.contains("The query listens of every connection would hold more than 150 bytes"))
        #expect(totals.listenQueries.inUse == 150)
        // An unlisten gives its bytes back, to the connection and to the server.
        #expect(try await Self.request(first, &firstReplies, 6, "n", #"{"p":"/a","t":1}"#).status == "ok")
        #expect(totals.listenQueries.inUse == 100)
        #expect(try await Self.request(second, &secondReplies, 3, "q", #"{"p":"/b","q":\#(query),"t":2,"h":""}"#).status == "ok")
        #expect(try await Self.request(first, &firstReplies, 7, "q", #"{"p":"/c","q":\#(query),"t":3,"h":""}"#).status == "unavailable")
        // Closing gives back everything a connection held.
        await second.disconnected()
        #expect(totals.listenQueries.inUse == 50)
        #expect(try await Self.request(first, &firstReplies, 8, "q", #"{"p":"/c","q":\#(query),"t":3,"h":""}"#).status == "ok")
        await first.disconnected()
        #expect(totals.listenQueries.inUse == 0)
    }

    /// The onDisconnect operations of every connection share one total of bytes, given back when
    /// they are cancelled, or run when their connection closes.
    @Test func onDisconnectBytesAreBoundedInTotal() async throws {
        var limits = ServerLimits()
        limits.maxOnDisconnectBytes = 1000
        limits.maxOnDisconnectBytesTotal = 300
        let totals = WireTotals(limits)
        var (a, aReplies) = Self.session(limits, totals: totals)
        var (b, bReplies) = Self.session(limits, totals: totals)
        var (c, cReplies) = Self.session(limits, totals: totals)
        // Each message is 150 bytes: {"t":"d","d":{"r":1,"a":"o","b":{"p":"/x","d":"…"}}}.
        let value = #"""# + String(repeating: "v", count: 99) + #"""#
        #expect(try await Self.request(a, &aReplies, 1, "o", #"{"p":"/a","d":\#(value)}"#).status == "ok")
        #expect(try await Self.request(b, &bReplies, 1, "o", #"{"p":"/b","d":\#(value)}"#).status == "ok")
        #expect(totals.onDisconnect.inUse == 300)
        let refused = try await Self.request(c, &cReplies, 1, "o", #"{"p":"/c","d":\#(value)}"#)
        #expect(refused.status == "unavailable")
        #expect(refused.data.contains("The onDisconnect operations of every connection would hold more than 300 bytes"))
        // A cancel gives the bytes back to the server.
        #expect(try await Self.request(a, &aReplies, 2, "oc", #"{"p":"/a"}"#).status == "ok")
        #expect(totals.onDisconnect.inUse == 150)
        #expect(try await Self.request(c, &cReplies, 2, "o", #"{"p":"/c","d":\#(value)}"#).status == "ok")
        #expect(totals.onDisconnect.inUse == 300)
        // A connection that closes runs its operations and lets their bytes go.
        await b.disconnected()
        #expect(totals.onDisconnect.inUse == 150)
        await c.disconnected()
        await a.disconnected()
        #expect(totals.onDisconnect.inUse == 0)
    }

    @Test func theServerWideBudgetsAreSetByName() throws {
        var limits = ServerLimits()
        try limits.set("max-listen-query-bytes=1_000")
        try limits.set("max-listen-query-bytes-total=2000")
        try limits.set("max-on-disconnect-bytes-total=3000")
        #expect(limits.maxListenQueryBytes == 1000)
        #expect(limits.maxListenQueryBytesTotal == 2000)
        #expect(limits.maxOnDisconnectBytesTotal == 3000)
    }

    @Test func aTokenOverTheLimitIsRefusedOnTheWire() async throws {
        var limits = ServerLimits()
        limits.maxTokenBytes = 100
        var (wire, replies) = Self.session(limits)
        let token = CredentialsTests.mockToken(#"{"sub":"alice","pad":""# + String(repeating: "p", count: 200) + #""}"#)
        let refused = try await Self.request(wire, &replies, 1, "auth", #"{"cred":"\#(token)"}"#)
        #expect(refused.status == "invalid_token")
        #expect(refused.data.contains("over this server's 100-byte limit"))
        await wire.disconnected()
    }

    /// The pieces of a WebSocket message wait in the server's budget of bytes being received,
    /// with HTTP bodies: 527 connections each holding 15 of 16 pieces no longer add up without
    /// bound.
    @Test func piecesOfAMessageAreReservedFromTheServersBudget() {
        let budget = BodyBudget(total: 1000)
        let first = BodyBudget.Lease(budget), second = BodyBudget.Lease(budget)
        var a = WireFrames(maxMessageBytes: 1 << 20, lease: first)
        var b = WireFrames(maxMessageBytes: 1 << 20, lease: second)
        let piece = String(repeating: "z", count: 300)
        #expect(a.receive("3") == .pending)
        #expect(a.receive(piece) == .pending)
        #expect(a.receive(piece) == .pending)
        #expect(budget.inUse == 600)
        #expect(b.receive("3") == .pending)
        #expect(b.receive(piece) == .pending)
        guard case .overBudget = b.receive(piece) else {
            Issue.record("a second connection's pieces went over the budget")
            return
        }
        // The first message completes and gives its share back.
        #expect(a.receive(piece) == .message(piece + piece + piece))
        #expect(budget.inUse == 300)
        second.end()
        #expect(budget.inUse == 0)
    }

    @Test func oneClientHoldsAtMostItsShareOfLongPollingSessions() throws {
        var limits = ServerLimits()
        limits.maxLongPollSessionsPerClient = 2
        limits.maxLongPollSessions = 40
        let sessions = LongPollSessions(limits: limits, console: ServerConsole { _ in })
        let registry = NamespaceRegistry(defaultName: "demo", rules: .open, coverage: nil)
        func wire(_ n: Int) -> WireSession {
            WireSession(namespace: registry.namespace("demo"), log: RequestLog(format: .quiet), limits: limits, host: "127.0.0.1",
                        session: "s\(n)", explainDenials: false, transport: .lp, origin: .unknown)
        }
        let foreign = ClientKey(origin: RequestOrigin(fetchSite: "cross-site"), peer: nil)
        let opened = try (0..<2).map { try sessions.open(wire: wire($0), callback: "1", client: foreign) }
        #expect(throws: LongPollSessions.Full.self) { try sessions.open(wire: wire(2), callback: "1", client: foreign) }
        // Another client still gets sessions.
        _ = try sessions.open(wire: wire(3), callback: "1", client: .local)
        // An ended session gives its client's place back.
        opened[0].end()
        _ = try sessions.open(wire: wire(4), callback: "1", client: foreign)
        #expect(sessions.count == 3)
    }

    /// Slow readers share one total: a reader with nothing waiting always takes an event (one
    /// that keeps up is never cut off), one that already has something waiting is refused once
    /// the total is spent. An event's value is rendered once, in one buffer every listener
    /// writes.
    @Test func slowReadersShareOneTotalAndOneBufferPerEvent() {
        let shared = QueueBudget.Shared(total: 100)
        let a = QueueBudget(limit: 1000, shared: shared), b = QueueBudget(limit: 1000, shared: shared)
        #expect(a.take(80))
        #expect(b.take(80))  // b had nothing waiting
        #expect(shared.bytes == 160)
        #expect(!a.take(10))  // a already has something waiting, and the total is spent
        #expect(a.overflowed)
        b.release(80)
        a.release(80)
        #expect(shared.bytes == 0)
        let value = RenderedValue(json: String(repeating: "1", count: 1000))
        let first = value.bytes(export: false), second = value.bytes(export: false)
        #expect(first.readableBytes == 1000)
        first.withUnsafeReadableBytes { x in second.withUnsafeReadableBytes { y in #expect(x.baseAddress == y.baseAddress) } }
    }
}
