@testable import DatabaseServer
import Foundation
import Testing

/// A stale compare-and-set (WebSocket `datastale`, REST 412) is logged as a retry, not an error.
@Suite struct StaleVerdictTests {
    static func record(transport: RequestRecord.Transport, method: String, status: Int, reason: String) -> RequestRecord {
        RequestRecord(
            transport: transport, method: method, namespace: "demo", path: "/counter", identity: "uid alice", uid: "alice",
            verdict: .stale, status: status, reason: reason, milliseconds: 1.5,
            time: .init(timeIntervalSince1970: 0))
    }

    @Test func aWebSocketRetryIsLoggedAsARetry() {
        let reason = "transaction retry: the data changed since the client read it (Transaction hash does not match)"
        let r = Self.record(transport: .ws, method: "p", status: 0, reason: reason)
        #expect(r.text == "RETRY p demo/counter (uid alice) 0 1.5 ms\n     " + reason)
        #expect(r.json == #"{"time":"1970-01-01T00:00:00Z","transport":"ws","method":"p","ns":"demo","path":"/counter","identity":"uid alice","uid":"alice","verdict":"stale","status":0,"rule":"# + "\"" + reason + #"","ms":1.500}"#)
    }

    @Test func aRESTRetryIsLoggedAsARetry() {
        let reason = "conditional write retry: the data changed since the client read it (ETag does not match)"
        let r = Self.record(transport: .rest, method: "PUT", status: 412, reason: reason)
        #expect(r.text.hasPrefix("RETRY PUT demo/counter (uid alice) 412 "))
        #expect(r.json.contains(#""verdict":"stale","status":412"#))
    }
}
